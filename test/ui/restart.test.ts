/**
 * A page left open in a plain browser while the host restarts: a new host takes a new port and
 * new tickets, so the old page can never come back. It must say so (and what to do), stop every
 * local clock and grey the blips, instead of "reconnecting…" forever with countdowns ticking as
 * if live. The page's clock is Playwright's (installed before the page loads), so time moves
 * only when the test says.
 */
import { describe, expect, it } from "vitest";
import { galleryScene } from "./gallery.js";
import { openUi, uiUrl, useUiScene } from "./harness.js";
import { HostClient } from "../../desktop/src/host-link.js";

const scene = useUiScene(galleryScene);

describe("on battery", () => {
  it("Settings says the schedules are calmer, and stops saying so back on power", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const note = page.locator(".battery-note");
    expect(await note.count()).toBe(0);
    // What the desktop shell calls (its real /v1 client).
    const shell = new HostClient(scene.world.home);
    await shell.setOnBattery(true);
    await note.waitFor();
    expect(await note.innerText()).toBe(
      "On battery: extensions update 3× less often (never more often than they ask). Back on power, as usual.",
    );
    await shell.setOnBattery(false);
    await note.waitFor({ state: "detached" });
    await page.close();
  });
});

describe("a page whose host restarted", () => {
  it("stops its clocks, greys its blips and says to run svc-host ui again", async () => {
    const page = await scene.ui.context.newPage();
    await page.clock.install({ time: Date.now() });
    await page.goto(await uiUrl(scene.world));
    await page.waitForSelector("svc-app[data-ready]");
    const countdown = page.locator('[data-blip="com.example.gallery/countdown"] svc-ticker').first();
    await countdown.waitFor();
    // Live: two seconds on, the countdown has moved.
    const before = await countdown.innerText();
    await page.clock.runFor(2_000);
    expect(await countdown.innerText()).not.toBe(before);

    await scene.restartHost();
    const note = page.locator(".gone-note");
    // Each reconnect waits 1 s of the page's clock; three refused in a row mean the host is gone.
    for (let i = 0; i < 20 && (await note.count()) === 0; i++) await page.clock.runFor(1_000);
    expect(await note.innerText()).toBe("svc restarted: run svc-host ui again");
    expect(await page.locator(".notch").getAttribute("class")).toContain("gone");
    expect(await page.getByText("reconnecting…").count()).toBe(0);
    expect(
      await page
        .locator(".blip")
        .first()
        .evaluate((el) => getComputedStyle(el).filter),
    ).toBe("grayscale(1)");
    // Stopped: a minute on, the countdown shows what it showed.
    const frozen = await countdown.innerText();
    await page.clock.runFor(60_000);
    expect(await countdown.innerText()).toBe(frozen);

    // What the note says works: a fresh address from svc-host ui opens the new host's page.
    const fresh = await scene.ui.context.newPage();
    await fresh.goto(await uiUrl(scene.world));
    await fresh.waitForSelector("svc-app[data-ready]");
    expect(await fresh.locator(".gone-note").count()).toBe(0);
  }, 60_000);
});
