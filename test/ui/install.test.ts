/**
 * Install review in the page against the real host: a `.svc` is shown with what it is and can
 * reach (the host's own install summary), installed on Install; an update that widens what it can
 * reach is shown as a diff, and the old version stays until the person accepts. Also writes the
 * review's screenshots.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, makeWorld, startHost, type RunningHost, type World } from "../host/harness.js";
import { packageJson, writeSvc } from "../trust/svc-package.js";
import { launchChromium, openUi, type UiBrowser } from "./harness.js";

let world: World;
let host: RunningHost;
let ui: UiBrowser;
const CODE = 'module.exports = { default: { async update(ctx) { await ctx.emit({ key: "d", title: "Deploys", layout: "stat", data: { value: 1 } }); return {}; } } };';

beforeAll(async () => {
  world = await makeWorld();
  await writeSvc(join(world.root, "deploys-1.0.0.svc"), {
    "package.json": packageJson({ permissions: { network: ["api.example.com"] } }, { version: "1.0.0" }),
    "dist/index.js": CODE,
  });
  await writeSvc(join(world.root, "deploys-2.0.0.svc"), {
    "package.json": packageJson({ permissions: { network: ["api.example.com", "*.example.net"], exec: ["bash"] } }, { version: "2.0.0" }),
    "dist/index.js": CODE,
  });
  host = await startHost(world, { SVC_HOST_CLOCK: "system" });
  ui = await launchChromium();
}, 40_000);

afterAll(async () => {
  await ui?.close();
  await host?.stop();
  await world?.remove();
});

const installedVersion = async () =>
  (JSON.parse(await readFile(join(world.user, "com.example.deploys", "package.json"), "utf8")) as { version: string }).version;

describe("install review", () => {
  it("shows what a package is and can reach, then installs it", async () => {
    const page = await openUi(world, ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file").fill(join(world.root, "deploys-1.0.0.svc"));
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.locator("h3").innerText()).toBe("Deploys 1.0.0");
    expect(await review.getByRole("list", { name: "reach" }).innerText()).toBe("connect to api.example.com");
    await page.screenshot({ path: join(REPO, "docs", "screenshots", "install-review-dark.png"), fullPage: false });
    await review.getByRole("button", { name: "Install" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 }).toBe("Installed Deploys 1.0.0.");
    expect(await installedVersion()).toBe("1.0.0");
    // The running host picks it up.
    await expect.poll(() => page.locator(".extension h2", { hasText: "Deploys" }).count(), { timeout: 15_000 }).toBe(1);
    await page.close();
  });

  it("an update that widens what it can reach is a diff, and nothing changes until it is accepted", async () => {
    const page = await openUi(world, ui.context);
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("tab", { name: "Settings" }).click();
    const review = page.getByRole("region", { name: "install review" });
    const open = async () => {
      await page.getByLabel("Path to a .svc file").fill(join(world.root, "deploys-2.0.0.svc"));
      await page.getByRole("button", { name: "Review" }).click();
      await review.waitFor();
    };
    await open();
    expect(await review.innerText()).toContain("This updates the installed Deploys 1.0.0. It stays as it is until you install.");
    expect(await review.getByRole("list", { name: "new reach" }).locator("li").allInnerTexts()).toEqual([
      "+ ⚠ connect to any address ending in .example.net — a wildcard covers every server under that name",
      "+ ⚠ run the program bash — it runs any command it is given",
    ]);
    await page.screenshot({ path: join(REPO, "docs", "screenshots", "install-update-light.png"), fullPage: false });
    // While the review is open, and after Cancel, the old version stays.
    expect(await installedVersion()).toBe("1.0.0");
    await review.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe("Did not install Deploys.");
    expect(await installedVersion()).toBe("1.0.0");
    await open();
    await review.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 }).toBe("Updated Deploys 2.0.0.");
    expect(await installedVersion()).toBe("2.0.0");
    await page.close();
  });

  it("a path that is not a package gets the installer's reason", async () => {
    const page = await openUi(world, ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file").fill("deploys.svc");
    await page.getByRole("button", { name: "Review" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe(
      "give the full path of the .svc file, like /home/you/Downloads/deploys-1.2.0.svc",
    );
    await page.getByLabel("Path to a .svc file").fill(join(world.root, "missing.svc"));
    await page.getByRole("button", { name: "Review" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toMatch(/missing\.svc/);
    await page.close();
  });
});
