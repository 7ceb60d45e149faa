/**
 * The notch form in the real page against the real host: the collapsed notch's ears show the blip
 * that matters most; a blip that changes state pops the notch open for a few seconds, only for
 * extensions the person lets pop (bundled: yes unless turned off; installed: no until turned on),
 * at most once per POP_EVERY_MS; reduced motion draws the same states without animation.
 * Screenshots of the ears and the pop, dark and light.
 */
import { join } from "node:path";
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { writeExtension } from "../host/harness.js";
import { openUi, postFromPage, SCREENSHOTS, useUiScene } from "./harness.js";

const DEPLOYS = "com.example.deploys";
const TICKER = "com.stranger.ticker";

/** Run 1: a deploy at 50% "Migrating", running; run 2 and later: succeeded. */
const DEPLOYS_CODE = `
let runs = 0;
module.exports = { default: {
  async update(ctx) {
    runs++;
    const done = runs >= 2;
    await ctx.emit({ key: "deploy", title: "Deploy api", icon: "rocket", layout: "progress", state: done ? "success" : "running",
      data: { fraction: 0.5, step: "Migrating" } });
    return {};
  },
} };
`;
/** A stranger's stat whose state flips on every run. */
const TICKER_CODE = `
let runs = 0;
module.exports = { default: {
  async update(ctx) {
    runs++;
    await ctx.emit({ key: "main", title: "Ticker", layout: "stat", state: runs % 2 ? "idle" : "warning", data: { value: runs, label: "runs" } });
    return {};
  },
} };
`;

const scene = useUiScene({
  setup: async (world) => {
    await writeExtension(join(world.bundled, "deploys"), {
      svc: { id: DEPLOYS, title: "Deploys", interval: "1h" },
      code: DEPLOYS_CODE,
    });
    await writeExtension(join(world.user, "ticker"), { svc: { id: TICKER, title: "Ticker", interval: "1h" }, code: TICKER_CODE });
  },
  ready: (host) =>
    Promise.all(
      [`${DEPLOYS}/deploy`, `${TICKER}/main`].map((id) =>
        host.waitFor((e) => e.type === "blip" && e.id === id, { timeoutMs: 20_000 }),
      ),
    ),
});

/** Records every blip the page received (`id#seq`) and whether the notch was popped right after it. */
async function watchBlips(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const app = document.querySelector("svc-app")!;
    app.addEventListener("svc-blip", (e) => {
      const { id } = (e as CustomEvent).detail as { id: string };
      // The pop is decided before this event: after the redraw the class says it.
      void (app as unknown as { updateComplete: Promise<void> }).updateComplete.then(() =>
        seen.push(`${id} ${document.querySelector(".notch")!.classList.contains("popped") ? "popped" : "quiet"}`),
      );
    });
  });
}
const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: string[] }).seen);

async function runNow(page: Page, extensionId: string): Promise<void> {
  expect((await postFromPage(page, "/api/run", { extensionId })).status).toBe(200);
}

describe("the collapsed notch", () => {
  it("shows the running deploy in its ears: icon and percent left, state and sender right, a thin bar", async () => {
    const page = await openUi(scene.world, scene.ui.context, "?view=compact");
    const ears = page.locator(".notch-button");
    expect(await ears.getAttribute("data-ears")).toBe(`${DEPLOYS}/deploy`);
    expect(await ears.locator(".ear-left .ear-figure").innerText()).toBe("50%");
    expect(await ears.locator(".ear-right .ear-side").innerText()).toBe("running");
    expect(await ears.locator(".ear-right .from").textContent()).toBe("from Deploys");
    expect(await ears.locator(".ear-bar").evaluate((bar) => (bar as HTMLProgressElement).value)).toBe(0.5);
    expect(await ears.getAttribute("aria-label")).toBe("Open svc: Deploy api, running, 50 percent, from Deploys");
    // The ears hug the notch: 185 px for the notch, 112 px per ear, 32 px high.
    const box = (await ears.boundingBox())!;
    expect([box.width, box.height]).toEqual([185 + 2 * 112, 32]);
    // Neither ear's text wraps.
    for (const ear of await ears.locator(".ear").all()) expect((await ear.boundingBox())!.height).toBe(32);
    await page.close();
  });
});

describe("a blip that changes state pops the notch", () => {
  it("for an extension that may pop; not for a stranger until the person allows it; once per 30 s", async () => {
    const page = await openUi(scene.world, scene.ui.context, "?view=compact");
    await watchBlips(page);
    // The stranger's state flips (idle → warning): installed extensions do not pop by default.
    await runNow(page, TICKER);
    await expect.poll(() => seen(page)).toEqual([`${TICKER}/main quiet`]);
    // The person lets it pop (Settings' switch sends this).
    expect((await postFromPage(page, "/api/settings", { mayPop: { [TICKER]: true } })).status).toBe(200);
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (document.querySelector("svc-app") as unknown as { store: { settings: { mayPop: Record<string, boolean> } } })
              .store.settings.mayPop,
        ),
      )
      .toEqual({ [TICKER]: true });
    await runNow(page, TICKER); // warning → idle
    await expect.poll(() => seen(page)).toEqual([`${TICKER}/main quiet`, `${TICKER}/main popped`]);
    const pop = page.locator(".pop");
    expect(await pop.locator(".blip").getAttribute("data-blip")).toBe(`${TICKER}/main`);
    expect(await pop.getAttribute("role")).toBe("status");
    // A pop never takes the focus.
    expect(await page.evaluate(() => document.activeElement?.closest(".pop") ?? null)).toBeNull();
    // Within 30 s of that pop, the bundled deploy's change (running → success) does not pop again.
    await runNow(page, DEPLOYS);
    await expect.poll(() => seen(page)).toHaveLength(3);
    expect((await seen(page))[2]).toBe(`${DEPLOYS}/deploy popped`); // still the ticker's pop, drawn
    expect(await pop.locator(".blip").getAttribute("data-blip")).toBe(`${TICKER}/main`);
    // The pop ends by itself (after 4 s) and the ears show the finished deploy: its outcome, not "50%".
    await page.waitForSelector(".notch.popped", { state: "detached", timeout: 10_000 });
    const ears = page.locator(".notch-button");
    expect(await ears.getAttribute("data-ears")).toBe(`${DEPLOYS}/deploy`);
    expect(await ears.locator(".ear-figure").innerText()).toBe("✓");
    expect(await ears.locator(".ear-side").innerText()).toBe("succeeded");
    expect(await ears.locator(".ear-bar").count()).toBe(0);
    await postFromPage(page, "/api/settings", { mayPop: { [TICKER]: false } });
    await page.close();
  });
});
