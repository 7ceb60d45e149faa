/**
 * The notch form in the real page against the real host: the collapsed notch's ears show the blip
 * that matters most; a blip that changes state pops the notch open for a few seconds, only for
 * extensions the person lets pop (bundled: yes unless turned off; installed: no until turned on),
 * at most once per POP_EVERY_MS; reduced motion draws the same states without animation.
 * Screenshots of the ears and the pop, dark and light.
 */
import { join } from "node:path";
import { cp, mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { post, REPO, writeExtension } from "../host/harness.js";
import { openExtensionRow, openUi, postFromPage, SCREENSHOTS, useUiScene } from "./harness.js";

const DEPLOYS = "com.example.deploys";
const TICKER = "com.stranger.ticker";
const BROKEN = "com.example.broken";
const SYSTEM = "dev.svc.system";

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
    await writeExtension(join(world.user, "ticker"), {
      svc: { id: TICKER, title: "Ticker", interval: "1h" },
      code: TICKER_CODE,
    });
    // The real bundled System extension (its dist, as npm install builds it).
    await mkdir(join(world.bundled, "system"), { recursive: true });
    for (const part of ["package.json", "dist"])
      await cp(join(REPO, "extensions", "system", part), join(world.bundled, "system", part), { recursive: true });
    await writeExtension(join(world.user, "broken"), {
      svc: { id: BROKEN, title: "Broken", icon: "xmark", interval: "1h" },
      code: `module.exports = { default: { async update() { throw new Error("the token was refused"); } } };`,
    });
  },
  ready: (host) =>
    Promise.all(
      [`${DEPLOYS}/deploy`, `${TICKER}/main`, `${SYSTEM}/machine`].map((id) =>
        host.waitFor((e) => e.type === "blip" && e.id === id, { timeoutMs: 20_000 }),
      ),
    ),
});

/** Screenshots in both schemes, into SCREENSHOTS (docs/screenshots with SVC_WRITE_SCREENSHOTS=1). */
async function shoot(
  page: Page,
  name: string,
  clip?: { x: number; y: number; width: number; height: number },
): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const scheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.screenshot({
      path: join(SCREENSHOTS, `${name}-${scheme}.png`),
      ...(clip ? { clip } : { fullPage: true }),
    });
  }
  await page.emulateMedia({ colorScheme: "dark", reducedMotion: "no-preference" });
}

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
    expect(
      await page.getByRole("button", { name: "Open svc: Deploy api, 50% running from Deploys", exact: true }).count(),
    ).toBe(1);
    // The ears hug the notch: 185 px for the notch, 136 px per ear, 32 px high.
    const box = (await ears.boundingBox())!;
    expect([box.width, box.height]).toEqual([185 + 2 * 136, 32]);
    // Neither ear's text wraps.
    for (const ear of await ears.locator(".ear").all()) expect((await ear.boundingBox())!.height).toBe(32);
    await shoot(page, "ears", { x: 0, y: 0, width: 680, height: 60 });
    await page.close();
  });
});

describe("a blip that changes state pops the notch", () => {
  it("for an extension that may pop; not for a stranger until the person allows it; for 4 s; once per 30 s", async () => {
    // The page's clock is paused: the pop's 4 s and 30 s are stepped, never waited for.
    const page = await openUi(scene.world, scene.ui.context, "?view=compact", (p) => p.clock.install());
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
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
            (
              document.querySelector("svc-app") as unknown as {
                store: { settings: { mayPop: Record<string, boolean> } };
              }
            ).store.settings.mayPop,
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
    // It grows out of the notch (420 ms); with reduced motion it is simply there.
    expect(await pop.evaluate((el) => getComputedStyle(el).animationName)).toBe("open");
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await pop.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
    expect(await pop.isVisible()).toBe(true);
    await shoot(page, "pop", { x: 0, y: 0, width: 680, height: 220 });
    // Within 30 s of that pop, the bundled deploy's change (running → success) does not pop again.
    await runNow(page, DEPLOYS);
    await expect.poll(() => seen(page)).toHaveLength(3);
    expect(await pop.locator(".blip").getAttribute("data-blip")).toBe(`${TICKER}/main`);
    // The pop lasts 4 s: there at 3,999 ms, gone at 4,000.
    await page.clock.runFor(3_999);
    expect(await page.locator(".notch.popped").count()).toBe(1);
    await page.clock.runFor(1);
    await page.waitForSelector(".notch.popped", { state: "detached" });
    // The finished deploy says how it ended, not "50% Migrating" (ears.test.ts has its ✓ in the ears).
    await page.click(".notch-button");
    const deploy = page.locator(`.panel [data-blip="${DEPLOYS}/deploy"]`);
    expect(await deploy.locator(".chip").innerText()).toBe("succeeded");
    expect(await deploy.locator(".percent, .step, .mark").count()).toBe(0);
    await page.keyboard.press("Escape");
    await page.waitForSelector(".notch.collapsed");
    // 30 s after the first pop (4 s passed), the stranger's next change pops again: not at 29,999 ms, at 30,000.
    await page.clock.runFor(30_000 - 4_000 - 1);
    await runNow(page, TICKER); // idle → warning
    await expect.poll(() => seen(page)).toHaveLength(4);
    expect((await seen(page))[3]).toBe(`${TICKER}/main quiet`);
    await page.clock.runFor(1);
    await runNow(page, TICKER); // warning → idle
    await expect.poll(() => seen(page)).toHaveLength(5);
    expect((await seen(page))[4]).toBe(`${TICKER}/main popped`);
    // Esc puts it away at once.
    await page.keyboard.press("Escape");
    await page.waitForSelector(".notch.popped", { state: "detached" });
    await postFromPage(page, "/api/settings", { mayPop: { [TICKER]: false } });
    await page.close();
  });
});

describe("Settings as rows", () => {
  it("one row per extension: icon, title, short state, switch; ↑/↓ between rows, Enter opens the details, a stack only behind details", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.click("#tab-settings");
    const row = (title: string) => page.locator(".ext-row", { has: page.locator(".ext-title", { hasText: title }) });
    await row("Broken").locator(".ext-state", { hasText: "last run failed" }).waitFor({ timeout: 15_000 });
    expect(await page.locator(".ext-row").count()).toBe(4);
    expect(await page.locator(".ext-details").count()).toBe(0); // all closed
    expect(await row("Deploys").locator(".ext-state").innerText()).toBe("on");
    expect(await row("Deploys").locator(".ext-open .icon").count()).toBe(1);
    expect(await row("Deploys").getByRole("switch", { name: "On", exact: true }).isChecked()).toBe(true);
    // Keyboard: ↓/↑ move between the rows' buttons, Enter opens one, Enter again closes it.
    const titles = await page.locator(".ext-row .ext-title").allInnerTexts();
    await page.locator(".ext-row .ext-open").first().focus();
    const focusedRow = () => page.evaluate(() => document.activeElement?.querySelector(".ext-title")?.textContent);
    await page.keyboard.press("ArrowDown");
    expect(await focusedRow()).toBe(titles[1]);
    for (let i = 0; i < titles.length; i++) await page.keyboard.press("ArrowDown"); // stays on the last
    expect(await focusedRow()).toBe(titles[titles.length - 1]);
    for (let i = 0; i < titles.length; i++) await page.keyboard.press("ArrowUp");
    expect(await focusedRow()).toBe(titles[0]);
    const broken = row("Broken");
    for (let i = 0; i < titles.indexOf("Broken"); i++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await broken.locator(".ext-details").waitFor();
    expect(await broken.locator(".ext-open").getAttribute("aria-expanded")).toBe("true");
    await shoot(page, "settings-rows");
    // The figures and the error are in the details; the error's message in the open, its stack folded.
    const problem = broken.locator(".ext-details .problem");
    expect((await problem.innerText()).split("\n")[0]).toContain("the token was refused");
    const stack = problem.locator("details.stack");
    if ((await stack.count()) > 0) expect(await stack.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await problem.innerText()).not.toMatch(/\n\s*at /); // no frame shows until "details" is opened
    // An installed stranger may not pop the notch until the person says so; a bundled one may.
    expect(await broken.getByRole("switch", { name: /May pop the notch/ }).isChecked()).toBe(false);
    await page.keyboard.press("Enter");
    await broken.locator(".ext-details").waitFor({ state: "detached" });
    await openExtensionRow(page, "Deploys");
    expect(
      await row("Deploys")
        .getByRole("switch", { name: /May pop the notch/ })
        .isChecked(),
    ).toBe(true);
    await page.close();
  });
});

describe("what the blips say", () => {
  it("the bundled System blip's labels and values never wrap in the 640 px panel", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const system = page.locator(`[data-blip="${SYSTEM}/machine"]`);
    await system.waitFor();
    const cells = system.locator(".meter-row .label, .meter-row .value");
    expect(await cells.count()).toBeGreaterThanOrEqual(4); // Disk and Memory at least, each a label and a value
    const wrapped = (selector: string) =>
      page.locator(selector).evaluateAll((els) =>
        els
          .map((el) => ({
            text: el.textContent,
            lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
            clipped: el.scrollWidth > el.clientWidth + 1,
          }))
          .filter((cell) => cell.lines !== 1 || cell.clipped),
      );
    expect(await wrapped(`[data-blip="${SYSTEM}/machine"] .meter-row :is(.label, .value)`)).toEqual([]);
    // The longest values it writes (bytes() keeps four digits and a unit; the load two decimals) fit too.
    const longest = { fraction: 0.99, value: "1023.9 GB of 1023.9 GB" };
    expect(
      (
        await post(scene.world, "/v1/blips", {
          id: "longest",
          title: "System",
          layout: "meter",
          data: {
            meters: [
              { label: "Disk", ...longest },
              { label: "Memory", ...longest },
              { label: "Load", fraction: 1, value: "128.00 on 128 cores" },
            ],
          },
        })
      ).status,
    ).toBe(200);
    await page.locator('[data-blip="webhook/longest"]').waitFor();
    expect(await wrapped('[data-blip="webhook/longest"] .meter-row :is(.label, .value)')).toEqual([]);
    expect(await page.locator('[data-blip="webhook/longest"] .meter-row .value').count()).toBe(3);
    await shoot(page, "panel-system");
    await page.close();
  });
});
