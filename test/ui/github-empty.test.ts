/**
 * The GitHub extension (extensions/github) in the real page, fed by the real host and runtime,
 * before the person has given it a token: one blip saying what to set, and the option itself in
 * its Settings row — nothing from GitHub and nothing made up (no network is asked: there is no
 * token to ask with). Writes docs/screenshots/github-empty-{dark,light}.png.
 */
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorld, REPO, startHost, type RunningHost, type World } from "../host/harness.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { launchChromium, openExtensionRow, openUi, SCREENSHOTS } from "./harness.js";

const BLIP = "app.svc.github/account";

const session = useSessionKeyring();
let world: World;
let host: RunningHost;
beforeAll(async () => {
  world = await makeWorld();
  // The built package as svc ships it: its manifest and bundle.
  for (const part of ["package.json", "dist"])
    await cp(join(REPO, "extensions", "github", part), join(world.bundled, "github", part), { recursive: true });
  host = await startHost(world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
  await host.waitFor((e) => e.type === "blip" && e.id === BLIP, { timeoutMs: 20_000 });
}, 60_000);
afterAll(async () => {
  await host?.stop();
  await world?.remove();
});

describe("GitHub without a token, in the page", () => {
  for (const colorScheme of ["dark", "light"] as const) {
    it(`says what to set, and Settings has the option (${colorScheme})`, async () => {
      const ui = await launchChromium({ colorScheme });
      try {
        const page = await openUi(world, ui.context);
        const blip = page.locator(`[data-blip="${BLIP}"]`).first();
        await blip.waitFor();
        expect(await blip.innerText()).toContain("No token");
        expect(await blip.innerText()).toContain(
          'Set "Personal access token" in Settings (scopes: repo, notifications)',
        );
        expect(
          await page
            .locator('[data-blip^="app.svc.github/"]')
            .evaluateAll((els) => [...new Set(els.map((el) => el.getAttribute("data-blip")))]),
        ).toEqual([BLIP]);
        await page.screenshot({ path: join(SCREENSHOTS, `github-empty-${colorScheme}.png`) });
        await page.getByRole("tab", { name: "Settings" }).click();
        const row = await openExtensionRow(page, "GitHub");
        expect(await row.getByText("Personal access token").count()).toBeGreaterThan(0);
        await page.close();
      } finally {
        await ui.close();
      }
    });
  }
});
