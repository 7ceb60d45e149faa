/**
 * axe-core finds no violation in the panel or Settings (in a browser, and with what the desktop
 * shell adds), in dark, light and forced colours, and
 * with reduced motion nothing animates.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { galleryScene } from "./gallery.js";
import { desktopShell, launchChromium, openUi, useUiScene, type UiBrowser } from "./harness.js";

const scene = useUiScene({ ...galleryScene, browser: false });
let axeSource: string;

beforeAll(async () => {
  axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
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
    const page = await openUi(scene.world, ui.context);
    expect(await violations(page)).toEqual([]);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.waitForSelector(".settings .extension");
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.waitForSelector(".compact");
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("finds no violation in what the desktop shell adds: the install area's drop zone and picker", async () => {
    const page = await openUi(scene.world, ui.context, "", desktopShell(scene.world, scene.world.root));
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.waitForSelector(".install-drop");
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

describe("reduced motion", () => {
  it("stops every animation (the pressed spinner included)", async () => {
    const ui = await launchChromium({ reducedMotion: "reduce" });
    try {
      const page = await openUi(scene.world, ui.context);
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
