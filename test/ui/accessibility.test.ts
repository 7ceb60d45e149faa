/**
 * axe-core finds no violation in the panel or Settings, in dark, light and forced colours, and
 * with reduced motion nothing animates.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { makeWorld, startHost, writeExtension, type RunningHost, type World } from "../host/harness.js";
import { GALLERY_SVC, galleryCode } from "./gallery.js";
import { launchChromium, openUi, type UiBrowser } from "./harness.js";

let world: World;
let host: RunningHost;
let axeSource: string;

beforeAll(async () => {
  world = await makeWorld();
  await writeExtension(join(world.bundled, "gallery"), { svc: GALLERY_SVC, code: galleryCode() });
  host = await startHost(world, { SVC_HOST_CLOCK: "system" });
  await host.waitFor((e) => e.type === "blip" && e.id === "com.example.gallery/stale", { timeoutMs: 15_000 });
  axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
}, 40_000);

afterAll(async () => {
  await host?.stop();
  await world?.remove();
});

/** The violations axe finds, as "rule: target" lines (empty when clean). */
async function violations(page: Page): Promise<string[]> {
  // page.evaluate runs through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")} — ${node.failureSummary ?? ""}`));
}

describe.each([
  { name: "dark", colorScheme: "dark" as const, forcedColors: "none" as const },
  { name: "light", colorScheme: "light" as const, forcedColors: "none" as const },
  { name: "forced colours", colorScheme: "dark" as const, forcedColors: "active" as const },
])("axe in $name", ({ colorScheme, forcedColors }) => {
  let ui: UiBrowser;
  beforeAll(async () => {
    ui = await launchChromium({ colorScheme, forcedColors, reducedMotion: "reduce" });
  });
  afterAll(async () => ui?.close());

  it("finds no violation in the panel, compact notch and Settings", async () => {
    const page = await openUi(world, ui.context);
    expect(await violations(page)).toEqual([]);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.waitForSelector(".settings .extension");
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.waitForSelector(".compact");
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

describe("reduced motion", () => {
  it("stops every animation (the pressed spinner included)", async () => {
    const ui = await launchChromium({ reducedMotion: "reduce" });
    try {
      const page = await openUi(world, ui.context);
      await page.locator('[data-blip="com.example.gallery/progress"] button', { hasText: "Retry" }).click();
      const spinner = page.locator('[data-blip="com.example.gallery/progress"] .spinner');
      await spinner.waitFor();
      expect(await spinner.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
      await page.close();
    } finally {
      await ui.close();
    }
  });
});
