/**
 * Icons that draw, and a blip gone stale while svc slept, in the real page (Debian's Chromium)
 * fed by the real host and runtime running svc's bundled extensions. The host runs on a manual
 * clock, so "an hour asleep" is one command; the page learns of the staleness only from the host
 * (by the page's own clock the blip is still fresh). Writes docs/screenshots/icons-wake-dark.png.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorld, post, REPO, startHost, writeExtension, type RunningHost, type World } from "../host/harness.js";
import { launchChromium, openUi, SCREENSHOTS, type UiBrowser } from "./harness.js";

const WEATHER = "com.example.weather";

/**
 * A weather blip good for ten minutes, and a list whose rows use the names people asked about
 * (and one name svc does not draw). After waking, its source is slow to answer: the run waits, so
 * the stale mark stays on screen for the picture.
 */
const weatherCode = `
let runs = 0;
module.exports = { default: {
  async update(ctx) {
    runs++;
    if (runs > 1) return new Promise(() => {});
    await ctx.emit({ key: "now", title: "Lisbon", subtitle: "Partly cloudy, light rain later", icon: "cloud.sun.rain",
      layout: "stat", data: { value: { type: "number", value: 17, unit: "°C" }, label: "feels like 15°" },
      staleAfter: new Date(Date.now() + 600000).toISOString() });
    await ctx.emit({ key: "today", title: "Today", icon: "checklist", layout: "list", data: { total: 5, items: [
      { id: "bills", title: "Pay the invoices", icon: "eurosign", subtitle: "3 due" },
      { id: "review", title: "Review the design", icon: "eye" },
      { id: "team", title: "Team sync", icon: "person.3", subtitle: "10:30" },
      { id: "offline", title: "Home server unreachable", icon: "wifi.slash", state: "failure" },
      { id: "custom", title: "A name svc does not draw", icon: "sparkles.rectangle.custom" },
    ] }, actions: [{ id: "plan", title: "Plan", icon: "gauge.with.dots.needle.67percent" }] });
    return {};
  },
} };
`;

let world: World;
let host: RunningHost;
let ui: UiBrowser;

beforeAll(async () => {
  world = await makeWorld();
  await writeExtension(join(world.user, "weather"), {
    svc: { id: WEATHER, title: "Weather", interval: "5m", icon: "cloud.sun" },
    code: weatherCode,
  });
  host = await startHost(world, { SVC_BUNDLED_EXTENSIONS: join(REPO, "extensions") });
  await host.waitFor((e) => e.type === "blip" && e.id === "dev.svc.system/machine", { timeoutMs: 20_000 });
  await host.waitFor((e) => e.type === "blip" && e.id === "dev.svc.focus/session", { timeoutMs: 20_000 });
  await host.waitFor((e) => e.type === "blip" && e.id === `${WEATHER}/today`, { timeoutMs: 20_000 });
  ui = await launchChromium();
}, 60_000);

afterAll(async () => {
  await ui?.close();
  await host?.stop();
  await world?.remove();
});

describe("icons and waking, in the page", () => {
  it("draws the bundled extensions' icons, a placeholder for an unknown name, and the blip that went stale asleep", async () => {
    const page = await openUi(world, ui.context);
    const blip = (id: string) => `[data-blip="${id}"]`;
    await page.waitForSelector(blip(`${WEATHER}/now`));
    expect(await page.locator(`${blip(`${WEATHER}/now`)} .mark`).count()).toBe(0);

    // An hour asleep, then awake: the weather blip's ten minutes have passed.
    await host.control({ command: "pause" });
    await host.control({ command: "advance", ms: 3_600_000 });
    const from = host.events.length;
    await host.control({ command: "resume" });
    await host.waitFor((e) => e.type === "blip" && e.id === `${WEATHER}/now` && e.blip?.stale === true, { from });
    const mark = page.locator(`${blip(`${WEATHER}/now`)} .mark`);
    await mark.waitFor();
    expect(await mark.textContent()).toBe("stale");
    expect(await page.locator(blip(`${WEATHER}/now`)).getAttribute("aria-label")).toBe(
      "Lisbon, 17 °C, not updated lately, from Weather",
    );

    // Every icon is a Lucide drawing; only the unknown name gets the dim placeholder.
    const glyphs = async (selector: string) =>
      page.locator(`${selector} svg.glyph`).evaluateAll((els) => els.map((el) => el.getAttribute("class")));
    expect(await glyphs(`${blip("dev.svc.system/machine")} header`)).toEqual(["glyph"]);
    expect(await glyphs(`${blip("dev.svc.focus/session")} header`)).toEqual(["glyph"]);
    expect(await glyphs(`${blip(`${WEATHER}/today`)} .item`)).toEqual([
      "glyph",
      "glyph",
      "glyph",
      "glyph",
      "glyph unknown",
    ]);
    expect(await page.locator(`${blip(`${WEATHER}/today`)} button svg.glyph`).count()).toBe(1);
    // Nothing the extension sent became markup: each drawing is Lucide's shapes only.
    const tags = await page
      .locator("svg.glyph *")
      .evaluateAll((els) => [...new Set(els.map((el) => el.tagName))].sort());
    expect(
      tags.every((tag) => ["circle", "ellipse", "line", "path", "polygon", "polyline", "rect"].includes(tag)),
    ).toBe(true);

    await mkdir(SCREENSHOTS, { recursive: true });
    await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
    await page.screenshot({ path: join(SCREENSHOTS, "icons-wake-dark.png"), fullPage: true });

    // A name is only a key: markup or an Object property name draws the placeholder, nothing runs.
    const pushed = await post(world, "/v1/blips", {
      id: "pusher/odd",
      title: "Odd names",
      icon: "__proto__",
      layout: "stat",
      data: { value: 1 },
      actions: [
        { id: "a", title: "A", icon: "<img src=x onerror=window.__pwned=1>" },
        { id: "b", title: "B", icon: "toString.fill" },
      ],
    });
    expect(pushed.status).toBe(200);
    await page.waitForSelector(blip("pusher/odd"));
    expect(await glyphs(blip("pusher/odd"))).toEqual(["glyph unknown", "glyph unknown", "glyph unknown"]);
    expect(await page.locator("svc-app img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.close();
  });
});
