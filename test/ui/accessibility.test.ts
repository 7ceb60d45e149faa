/**
 * axe-core finds no violation in the panel or Settings (in a browser, and with what the desktop
 * shell adds), in dark, light and forced colours, and
 * with reduced motion nothing animates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { galleryScene } from "./gallery.js";
import { axeViolations as violations } from "./axe.js";
import { desktopShell, launchChromium, openUi, useUiScene, type UiBrowser, openExtensionRow } from "./harness.js";

const scene = useUiScene({ ...galleryScene, browser: false });

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

  it("finds no violation in the panel, collapsed notch and Settings", async () => {
    const page = await openUi(scene.world, ui.context);
    expect(await violations(page)).toEqual([]);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.waitForSelector(".settings .extension");
    expect(await violations(page)).toEqual([]);
    await openExtensionRow(page, "Gallery"); // a row open to its details: switches, options, the pop choice
    expect(await violations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.waitForSelector(".notch.collapsed");
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
