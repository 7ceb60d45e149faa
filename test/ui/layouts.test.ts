/**
 * Every layout drawn in full in the real page, fed by the real host and runtime: titles, typed
 * values for the locale, sparkline, stages, ticking countdown, meters, stale marks, names for
 * screen readers. Also writes the screenshots in docs/screenshots/ (dark and light).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, makeWorld, startHost, writeExtension, type RunningHost, type World } from "../host/harness.js";
import { GALLERY_SVC, galleryCode } from "./gallery.js";
import { launchChromium, openUi, type UiBrowser } from "./harness.js";

let world: World;
let host: RunningHost;
let ui: UiBrowser;

beforeAll(async () => {
  world = await makeWorld();
  await writeExtension(join(world.bundled, "gallery"), { svc: GALLERY_SVC, code: galleryCode() });
  host = await startHost(world, { SVC_HOST_CLOCK: "system" });
  await host.waitFor((e) => e.type === "blip" && e.id === "com.example.gallery/stale", { timeoutMs: 15_000 });
  ui = await launchChromium();
}, 40_000);

afterAll(async () => {
  await ui?.close();
  await host?.stop();
  await world?.remove();
});

const text = (page: import("playwright-core").Page, selector: string) => page.locator(selector).first().innerText();

describe("the panel", () => {
  it("draws all seven layouts with their fields, formatted for the locale", async () => {
    const page = await openUi(world, ui.context);
    const blip = (key: string) => `[data-blip="com.example.gallery/${key}"]`;
    await page.waitForSelector(blip("meter"));
    // stat: currency, label, delta as percent, sparkline, facts
    expect(await text(page, `${blip("stat")} .figure`)).toBe("€1,250.50");
    expect(await text(page, `${blip("stat")} .delta`)).toContain("12%");
    expect(await page.locator(`${blip("stat")} svg.spark polyline`).count()).toBe(1);
    const facts = await page.locator(`${blip("stat")} .facts dd`).allInnerTexts();
    expect(facts).toEqual(["42", "-€20.00", "3 hours ago", "1m 35s"]);
    // progress: bar, step, six stages with their states
    expect(await page.locator(`${blip("progress")} progress`).first().evaluate((el) => (el as HTMLProgressElement).value)).toBe(0.4);
    expect(await text(page, `${blip("progress")} .step`)).toBe("Uploading assets");
    expect(await page.locator(`${blip("progress")} .stage`).evaluateAll((els) => els.map((el) => el.className))).toEqual([
      "stage done", "stage done", "stage running", "stage pending", "stage skipped", "stage failed",
    ]);
    // session: a running clock and the step
    expect(await text(page, `${blip("session")} svc-ticker`)).toMatch(/^12:3\d$/);
    // list: rows, link, total, per-row actions
    expect(await page.locator(`${blip("list")} .item`).count()).toBe(3);
    expect(await page.locator(`${blip("list")} .item a`).first().getAttribute("href")).toBe("https://github.com/octo/web/pull/42");
    expect(await text(page, `${blip("list")} .more`)).toBe("9 more");
    // score
    expect(await page.locator(`${blip("score")} .score-value`).allInnerTexts()).toEqual(["98", "101"]);
    expect(await text(page, `${blip("score")} .period`)).toBe("Q4 2:31");
    // countdown ticks on its own
    const first = await text(page, `${blip("countdown")} svc-ticker`);
    expect(first).toMatch(/^25:[23]\d$/);
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent !== undefined && document.querySelector(sel)!.textContent !== (window as any).__first, `${blip("countdown")} svc-ticker`, { timeout: 3000 }).catch(() => {});
    await expect.poll(() => text(page, `${blip("countdown")} svc-ticker`), { timeout: 4000 }).not.toBe(first);
    // meters
    expect(await page.locator(`${blip("meter")} meter`).count()).toBe(3);
    expect(await page.locator(`${blip("meter")} .meter-row .value`).allInnerTexts()).toEqual(["4,150 / 5,000", "71%", "40%"]);
    expect(await text(page, `${blip("meter")} .meter-row .sub`)).toBe("resets in 42 minutes");
    // stale
    expect(await page.locator(`${blip("stale")}.stale`).count()).toBe(1);
    expect(await page.locator(`${blip("stat")}.stale`).count()).toBe(0);
    // screen-reader names
    expect(await page.locator(blip("progress")).getAttribute("aria-label")).toBe("Deploy api, running, 40 percent");
    expect(await page.locator(blip("stale")).getAttribute("aria-label")).toBe("Build cache, idle, 17, not updated lately");
    await page.close();
  });

  it("writes screenshots of every layout, Settings, dark and light", async () => {
    const folder = join(REPO, "docs", "screenshots");
    await mkdir(folder, { recursive: true });
    for (const scheme of ["dark", "light"] as const) {
      const page = await openUi(world, ui.context);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.waitForSelector('[data-blip="com.example.gallery/meter"]');
      await page.screenshot({ path: join(folder, `panel-${scheme}.png`), fullPage: true });
      for (const key of ["stat", "progress", "session", "list", "score", "countdown", "meter"]) {
        await page.locator(`[data-blip="com.example.gallery/${key}"]`).screenshot({ path: join(folder, `layout-${key}-${scheme}.png`) });
      }
      await page.getByRole("tab", { name: "Settings" }).click();
      await page.waitForSelector(".settings .extension");
      await page.screenshot({ path: join(folder, `settings-${scheme}.png`), fullPage: true });
      await page.close();
    }
  });
});
