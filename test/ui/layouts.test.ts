/**
 * Every layout drawn in full in the real page, fed by the real host and runtime: titles, typed
 * values for the locale, sparkline, stages, ticking countdown, meters, stale marks, names for
 * screen readers. Also writes the screenshots in docs/screenshots/ (dark and light).
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { galleryScene } from "./gallery.js";
import { openUi, SCREENSHOTS, useUiScene } from "./harness.js";

// Before the scene's own setup: the clocks it draws are judged against the time since then, so a
// busy machine that takes a while to show the page does not fail them.
let sceneStartedAt = 0;
beforeAll(() => {
  sceneStartedAt = Date.now();
});
const scene = useUiScene(galleryScene);

/** A clock's "m:ss" in seconds. */
const clockSeconds = (shown: string) => {
  const [, minutes, seconds] = /^(\d+):(\d\d)$/.exec(shown) ?? [];
  return Number(minutes) * 60 + Number(seconds);
};
/** Whole seconds since the scene started (the blips were emitted after that). */
const secondsSinceScene = () => Math.ceil((Date.now() - sceneStartedAt) / 1000);

const text = (page: import("playwright-core").Page, selector: string) => page.locator(selector).first().innerText();

describe("the panel", () => {
  it("draws all seven layouts with their fields, formatted for the locale", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const blip = (key: string) => `[data-blip="com.example.gallery/${key}"]`;
    await page.waitForSelector(blip("meter"));
    // stat: currency, label, delta as percent, sparkline, facts
    expect(await text(page, `${blip("stat")} .figure`)).toBe("€1,250.50");
    expect(await text(page, `${blip("stat")} .delta`)).toContain("12%");
    expect(await page.locator(`${blip("stat")} svg.spark polyline`).count()).toBe(1);
    const facts = await page.locator(`${blip("stat")} .facts dd`).allInnerTexts();
    expect(facts).toEqual(["42", "-€20.00", "3 hours ago", "1m 35s"]);
    // progress: bar, step, six stages with their states
    expect(
      await page
        .locator(`${blip("progress")} progress`)
        .first()
        .evaluate((el) => (el as HTMLProgressElement).value),
    ).toBe(0.4);
    expect(await text(page, `${blip("progress")} .step`)).toBe("Uploading assets");
    expect(
      await page.locator(`${blip("progress")} .stage`).evaluateAll((els) => els.map((el) => el.className)),
    ).toEqual(["stage done", "stage done", "stage running", "stage pending", "stage skipped", "stage failed"]);
    // session: a running clock and the step
    // (emitted as started 12:34 ago)
    const running = clockSeconds(await text(page, `${blip("session")} svc-ticker`));
    expect(running).toBeGreaterThanOrEqual(12 * 60 + 34);
    expect(running).toBeLessThanOrEqual(12 * 60 + 34 + secondsSinceScene());
    // list: rows, link, total, per-row actions
    expect(await page.locator(`${blip("list")} .item`).count()).toBe(3);
    expect(
      await page
        .locator(`${blip("list")} .item a`)
        .first()
        .getAttribute("href"),
    ).toBe("https://github.com/octo/web/pull/42");
    expect(await text(page, `${blip("list")} .more`)).toBe("9 more");
    // an option whose `blips` names this blip is drawn on it (and on no other)
    expect(await page.locator(`${blip("list")} details.blip-options label`).allTextContents()).toEqual(["Limit"]);
    expect(await page.locator(`${blip("stat")} details.blip-options`).count()).toBe(0);
    // score
    expect(await page.locator(`${blip("score")} .score-value`).allInnerTexts()).toEqual(["98", "101"]);
    expect(await text(page, `${blip("score")} .period`)).toBe("Q4 2:31");
    // countdown ticks on its own
    // (emitted as ending in 25:30)
    const first = await text(page, `${blip("countdown")} svc-ticker`);
    expect(clockSeconds(first)).toBeLessThanOrEqual(25 * 60 + 30);
    expect(clockSeconds(first)).toBeGreaterThanOrEqual(25 * 60 + 30 - secondsSinceScene());
    await expect.poll(() => text(page, `${blip("countdown")} svc-ticker`), { timeout: 15_000 }).not.toBe(first);
    // meters
    expect(await page.locator(`${blip("meter")} meter`).count()).toBe(3);
    expect(await page.locator(`${blip("meter")} .meter-row .value`).allInnerTexts()).toEqual([
      "4,150 / 5,000",
      "71%",
      "40%",
    ]);
    expect(await text(page, `${blip("meter")} .meter-row .sub`)).toBe("resets in 42 minutes");
    // stale
    expect(await page.locator(`${blip("stale")}.stale`).count()).toBe(1);
    expect(await page.locator(`${blip("stat")}.stale`).count()).toBe(0);
    // screen-reader names
    expect(await page.locator(blip("progress")).getAttribute("aria-label")).toBe(
      "Deploy api, running, 40 percent, from Gallery",
    );
    expect(await page.locator(blip("stale")).getAttribute("aria-label")).toBe(
      "Build cache, idle, 17, not updated lately, from Gallery",
    );
    await page.close();
  });

  it("writes screenshots of every layout, Settings, dark and light", async () => {
    const folder = SCREENSHOTS;
    await mkdir(folder, { recursive: true });
    for (const scheme of ["dark", "light"] as const) {
      const page = await openUi(scene.world, scene.ui.context);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.waitForSelector('[data-blip="com.example.gallery/meter"]');
      await page.screenshot({ path: join(folder, `panel-${scheme}.png`), fullPage: true });
      for (const key of ["stat", "progress", "session", "list", "score", "countdown", "meter"]) {
        await page
          .locator(`[data-blip="com.example.gallery/${key}"]`)
          .screenshot({ path: join(folder, `layout-${key}-${scheme}.png`) });
      }
      await page.locator(".notch-button").click();
      await page.waitForSelector(".notch.collapsed");
      await page.screenshot({
        path: join(folder, `collapsed-${scheme}.png`),
        clip: { x: 0, y: 0, width: 680, height: 60 },
      });
      await page.locator(".notch-button").click();
      await page.getByRole("tab", { name: "Settings" }).click();
      await page.waitForSelector(".settings .extension");
      await page.screenshot({ path: join(folder, `settings-${scheme}.png`), fullPage: true });
      await page.close();
    }
    for (const scheme of ["dark", "light"]) {
      for (const name of [
        "panel",
        "collapsed",
        "settings",
        ...["stat", "progress", "session", "list", "score", "countdown", "meter"].map((key) => `layout-${key}`),
      ]) {
        const png = await readFile(join(folder, `${name}-${scheme}.png`));
        expect(png.subarray(1, 4).toString()).toBe("PNG");
      }
    }
  });
});
