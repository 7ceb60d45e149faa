/**
 * Install review in the page against the real host: a `.svc` is shown with what it is and can
 * reach (the host's own install summary), installed on Install; an update that widens what it can
 * reach is shown as a diff, and the old version stays until the person accepts. Also writes the
 * review's screenshots.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { World } from "../host/harness.js";
import { randomBytes } from "node:crypto";
import { keyFingerprint, keyWords, publicKeyOfSeed, signPackage } from "@svc/api/signing";
import { packageJson, writeSvc } from "../trust/svc-package.js";
import { desktopShell, dropOn, openUi, postFromPage, SCREENSHOTS, useUiScene, openExtensionRow } from "./harness.js";

const CODE =
  'module.exports = { default: { async update(ctx) { await ctx.emit({ key: "d", title: "Deploys", layout: "stat", data: { value: 1 } }); return {}; } } };';

async function writePackages(world: World): Promise<void> {
  await writeSvc(join(scene.world.root, "deploys-1.0.0.svc"), {
    "package.json": packageJson({ permissions: { network: ["api.example.com"] } }, { version: "1.0.0" }),
    "dist/index.js": CODE,
  });
  await writeSvc(join(scene.world.root, "deploys-2.0.0.svc"), {
    "package.json": packageJson(
      { interval: "5m", permissions: { network: ["api.example.com", "*.example.net"], exec: ["bash"] } },
      { version: "2.0.0" },
    ),
    "dist/index.js": CODE,
  });
  const signed = new Map<string, Buffer>([
    [
      "package.json",
      Buffer.from(packageJson({ id: "com.example.signed", title: "Signed Deploys" }, { version: "1.0.0" })),
    ],
    ["dist/index.js", Buffer.from(CODE)],
  ]);
  for (const [name, data] of signPackage("com.example.signed", "1.0.0", signed, AUTHOR)) signed.set(name, data);
  await writeSvc(join(scene.world.root, "signed-1.0.0.svc"), Object.fromEntries(signed));
}

const AUTHOR_SEED = randomBytes(32);
const AUTHOR = { seed: AUTHOR_SEED, keyId: randomBytes(8), key: publicKeyOfSeed(AUTHOR_SEED) };

const scene = useUiScene({ setup: writePackages });

const installedVersion = async () =>
  (
    JSON.parse(await readFile(join(scene.world.user, "com.example.deploys", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;

describe("install review", () => {
  it("shows what a package is and can reach, then installs it", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file").fill(join(scene.world.root, "deploys-1.0.0.svc"));
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.locator("h3").innerText()).toBe("Deploys 1.0.0");
    expect(await review.getByRole("list", { name: "reach" }).innerText()).toBe("connect to api.example.com");
    expect(await review.locator(".author").innerText()).toBe("Unsigned: anyone could have made this.");
    await page.screenshot({ path: join(SCREENSHOTS, "install-review-dark.png"), fullPage: false });
    await review.getByRole("button", { name: "Install" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 })
      .toBe("Installed Deploys 1.0.0.");
    expect(await installedVersion()).toBe("1.0.0");
    // The running host picks it up.
    await expect.poll(() => page.locator(".extension h2", { hasText: "Deploys" }).count(), { timeout: 15_000 }).toBe(1);
    await page.close();
  });

  it("shows a signed package's key as a fingerprint and words, new to you", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file").fill(join(scene.world.root, "signed-1.0.0.svc"));
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.locator(".author").innerText()).toBe(
      `Signed by key ${keyFingerprint(AUTHOR.key)} (${keyWords(AUTHOR.key)}): new to you.`,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "install-review-signed-dark.png"), fullPage: false });
    await review.getByRole("button", { name: "Cancel" }).click();
    await page.close();
  });

  it("an update that widens what it can reach is a diff, and nothing changes until it is accepted", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByRole("tab", { name: "Settings" }).click();
    const review = page.getByRole("region", { name: "install review" });
    const open = async () => {
      await page.getByLabel("Path to a .svc file").fill(join(scene.world.root, "deploys-2.0.0.svc"));
      await page.getByRole("button", { name: "Review" }).click();
      await review.waitFor();
    };
    await open();
    expect(await review.innerText()).toContain(
      "This updates the installed Deploys 1.0.0. It stays as it is until you install.",
    );
    // All that the terminal's review says (src/review/summary.ts): who made it, how often it runs,
    // what its programs can do.
    expect(await review.locator(".sub").innerText()).toBe("com.example.deploys · by Example");
    const paragraphs = await review.locator("p").allInnerTexts();
    expect(paragraphs).toContain("It runs every 5m.");
    expect(paragraphs).toContain("Programs it runs can do anything your account can.");
    // The wording is src/install's summary (reach.ts); the page shows each gained item, marked.
    const gained = await review.getByRole("list", { name: "new reach" }).locator("li").allInnerTexts();
    expect(gained).toHaveLength(2);
    expect(gained[0]).toBe(
      "+ ⚠ connect to any address ending in .example.net — a wildcard covers every server under that name",
    );
    expect(gained[1]).toMatch(/^\+ ⚠ run the program bash — /);
    await page.screenshot({ path: join(SCREENSHOTS, "install-update-light.png"), fullPage: false });
    // While the review is open, and after Cancel, the old version stays.
    expect(await installedVersion()).toBe("1.0.0");
    await review.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe("Did not install Deploys.");
    expect(await installedVersion()).toBe("1.0.0");
    await open();
    await review.getByRole("button", { name: "Update" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 })
      .toBe("Updated Deploys 2.0.0.");
    expect(await installedVersion()).toBe("2.0.0");
    await page.close();
  });

  it("an installed extension whose package.json was rewritten with more is not loaded, says so, and is accepted from its review", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Deploys");
    const file = join(scene.world.user, "com.example.deploys", "package.json");
    const wider = packageJson(
      { permissions: { network: ["api.example.com", "*.example.net"], exec: ["bash", "sh"] } },
      { version: "2.0.0" },
    );
    await writeFile(file, wider);
    await expect
      .poll(() => card.locator(".status").innerText(), { timeout: 10_000 })
      .toMatch(/^Status: not loaded: changed on disk since you installed it( ·|$)/);
    expect(await card.locator(".ext-state").innerText()).toBe("changed on disk");
    expect(await card.locator(".problem").innerText()).toMatch(
      /^Problem: changed on disk since you installed it: package\.json changed; it now also asks to: run the program sh/,
    );
    await card.getByRole("button", { name: "Review changes…" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.innerText()).toContain("Changed on disk since you installed it: package.json changed.");
    const gained = await review.getByRole("list", { name: "new reach" }).locator("li").allInnerTexts();
    expect(gained).toEqual([expect.stringMatching(/^\+ ⚠ run the program sh — /)]);
    await review.getByRole("button", { name: "Update" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 })
      .toBe("Updated Deploys 2.0.0.");
    await expect.poll(() => card.locator(".status").innerText(), { timeout: 15_000 }).not.toMatch(/changed on disk/);
    await page.close();
  });

  it("an installed extension can be turned off and on, and uninstalled after a second press", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const card = await openExtensionRow(page, "Deploys");
    await card.waitFor();
    expect(await card.locator(".sub").first().innerText()).toContain("installed by you");
    const toggle = card.getByRole("switch", { name: "On", exact: true });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await expect.poll(() => card.locator(".status").innerText(), { timeout: 10_000 }).toMatch(/^Status: turned off/);
    await toggle.check();
    await expect.poll(() => card.locator(".status").innerText(), { timeout: 10_000 }).not.toMatch(/turned off/);
    await card.getByRole("button", { name: "Uninstall…" }).click();
    expect(await card.getByRole("alert").last().innerText()).toBe("Remove Deploys, its options and its data?");
    expect(await installedVersion()).toBe("2.0.0"); // nothing removed before the second press
    await card.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => page.locator(".extension h2", { hasText: "Deploys" }).count(), { timeout: 10_000 }).toBe(0);
    await expect(installedVersion()).rejects.toThrow(/ENOENT/);
    await page.close();
  });

  it("in the desktop shell, a .svc dropped on the install area, chosen, or dropped anywhere on the notch is reviewed by handle", async () => {
    const page = await openUi(scene.world, scene.ui.context, "", desktopShell(scene.world, scene.world.root));
    await page.getByRole("tab", { name: "Settings" }).click();
    expect(await page.locator(".install-drop").innerText()).toContain("Drop a .svc file here, or");
    expect(await page.getByText("Or type the path of a .svc file").count()).toBe(1);
    const review = page.getByRole("region", { name: "install review" });

    await dropOn(page, ".install-drop", ["deploys-1.0.0.svc"], "");
    await review.waitFor();
    expect(await review.locator("h3").innerText()).toBe("Deploys 1.0.0");
    expect(await review.getByRole("list", { name: "reach" }).innerText()).toBe("connect to api.example.com");
    await review.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe("Did not install Deploys.");

    // The picker, limited to .svc files.
    expect(await page.locator(".install-drop input[type=file]").getAttribute("accept")).toBe(".svc");
    await page.locator(".install-drop input[type=file]").setInputFiles(join(scene.world.root, "deploys-2.0.0.svc"));
    await review.waitFor();
    expect(await review.locator("h3").innerText()).toBe("Deploys 2.0.0");
    await review.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe("Did not install Deploys.");

    // Anywhere on the closed notch: it opens on Settings with the review.
    await page.click(".notch-button"); // close
    await dropOn(page, "main.notch", ["deploys-1.0.0.svc"], "");
    await review.waitFor();
    expect(await page.getByRole("tab", { name: "Settings" }).getAttribute("aria-selected")).toBe("true");
    expect(await review.locator("h3").innerText()).toBe("Deploys 1.0.0");
    await review.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe("Did not install Deploys.");

    // Anything else dropped on the install area is named, and nothing is registered with the host.
    await dropOn(page, ".install-drop", ["notes.txt"]);
    await expect
      .poll(() => page.locator(".install [role=status]").innerText())
      .toBe("only .svc packages can be installed (svckit pack makes them); got notes.txt");
    await page.close();
  });

  it("a browser has no drop area: the path is typed; a handle the host does not know is a clear 400", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    expect(await page.locator(".install-drop").count()).toBe(0);
    expect(await postFromPage(page, "/api/install/review", { handle: "B".repeat(24) })).toEqual({
      status: 400,
      body: {
        error:
          '"handle": this file is not known to svc any more (svc forgets given files when it restarts, and after 1,000 newer ones): drop or choose it again',
      },
    });
    for (const body of [{}, { path: join(scene.world.root, "deploys-1.0.0.svc"), handle: "B".repeat(24) }]) {
      expect(await postFromPage(page, "/api/install/review", body)).toEqual({
        status: 400,
        body: {
          error:
            'send one of "path" (the .svc file\'s full path), "handle" (a file dropped in the svc app), "address" (its https address) or "catalog" (a name from the catalog)',
        },
      });
    }
    await page.close();
  });

  it("the page's review shows each entry as the fence reads it: resolved, marked, svc's own folder refused", async () => {
    const file = join(scene.world.root, "attack-1.0.0.svc");
    await writeSvc(file, {
      "package.json": packageJson(
        {
          id: "com.example.attack",
          title: "Attack",
          permissions: {
            network: ["2130706433:47811", "0xa9fea9fe"],
            files: ["~/Documents/../.ssh", scene.world.home],
            exec: ["cp"],
          },
        },
        { name: "attack", version: "1.0.0" },
      ),
      "dist/index.js": CODE,
    });
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file").fill(file);
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.getByRole("list", { name: "reach" }).locator("li").allInnerTexts()).toEqual([
      '⚠ connect to 127.0.0.1:47811 (written "2130706433:47811") — programs on your own computer (loopback)',
      '⚠ connect to 169.254.169.254 (written "0xa9fea9fe") — the cloud metadata service, which hands out this machine\'s credentials',
      '⚠ read files in ~/.ssh (written "~/Documents/../.ssh") — a folder that holds keys, passwords or settings',
      `⚠ read files in ${scene.world.home} — refused: it is svc's own folder (its token, its settings, every extension's files), which no extension may read`,
      "⚠ run the program cp — it writes files anywhere (any package, svc's own files, ~/.bashrc), so svc refuses it (the package does not ask to run any command)",
    ]);
    await review.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toBe("Did not install Attack.");
    await page.close();
  });

  it("a path that is not a package gets the installer's reason", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file").fill("deploys.svc");
    await page.getByRole("button", { name: "Review" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText())
      .toBe("give the full path of the .svc file, like /home/you/Downloads/deploys-1.2.0.svc");
    await page.getByLabel("Path to a .svc file").fill(join(scene.world.root, "missing.svc"));
    await page.getByRole("button", { name: "Review" }).click();
    await expect.poll(() => page.locator(".install [role=status]").innerText()).toMatch(/missing\.svc/);
    await page.close();
  });
});
