/**
 * Install from an address and "Check for updates" in the page, against the real host and a
 * loopback server (plain http under the host's test switch, SVC_TEST_ALLOW_LOOPBACK_HTTP): the
 * address gets the same review as a file and is remembered; a check finds the same version (up
 * to date), a newer one that gains nothing (installed), one that gains something (staged, then
 * reviewed as a diff and accepted from Settings), and one signed by another key (refused).
 * Writes the screenshots of those words.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatPublicKey,
  keyFingerprint,
  keyWords,
  publicKeyOfSeed,
  signPackage,
  signStatement,
  STATEMENT_FILES,
} from "@svc/api/signing";
import { packageJson } from "../trust/svc-package.js";
import { writeArchive } from "../../cli/src/pack/archive.js";
import { openExtensionRow, openUi, postFromPage, SCREENSHOTS, useUiScene } from "./harness.js";

const ID = "com.example.updates";
const CODE =
  'module.exports = { default: { async update(ctx) { await ctx.emit({ key: "u", title: "Updates", layout: "stat", data: { value: 1 } }); return {}; } } };';

const author = (seed: Buffer) => ({ seed, keyId: randomBytes(8), key: publicKeyOfSeed(seed) });
const AUTHOR = author(randomBytes(32));
const STRANGER = author(randomBytes(32));
const NEXT = author(randomBytes(32));
const keyLine = (who: typeof AUTHOR) => formatPublicKey(who).split("\n")[1];
const shownKey = (who: typeof AUTHOR) => `${keyFingerprint(who.key)} (${keyWords(who.key)})`;

/** A signed package of `version`, as `svckit pack` lays it out, carrying `statements` (name → bytes). */
async function signed(
  version: string,
  who: typeof AUTHOR,
  network: string[] = [],
  statements: Record<string, string | Buffer> = {},
): Promise<Buffer> {
  const files = new Map<string, Buffer>([
    [
      "package.json",
      Buffer.from(
        packageJson({ id: ID, title: "Updates Demo", permissions: { network } }, { name: "updates-demo", version }),
      ),
    ],
    ["dist/index.js", Buffer.from(CODE)],
    ...Object.entries(statements).map(([name, data]): [string, Buffer] => [name, Buffer.from(data)]),
  ]);
  for (const [name, data] of signPackage(ID, version, files, who)) files.set(name, data);
  const path = join(scene.world.root, `served-${version}-${randomBytes(4).toString("hex")}.svc`);
  await writeArchive(files, path);
  return readFile(path);
}

/** What the loopback server answers at /updates-demo.svc (404 until set). */
let served: Buffer | undefined;
const server = createServer((req, res) => {
  if (req.url === "/updates-demo.svc" && served) return void res.end(served);
  res.statusCode = 404;
  res.end();
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const scene = useUiScene({ env: { SVC_TEST_ALLOW_LOOPBACK_HTTP: "1" } });

const installedVersion = async () =>
  (JSON.parse(await readFile(join(scene.world.user, ID, "package.json"), "utf8")) as { version: string }).version;
const address = () => `${base}/updates-demo.svc`;

describe("install from an address and check for updates", () => {
  it("an https address gets the file's review, and installing remembers it", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const field = page.getByLabel("Path to a .svc file, or its https address");
    await field.fill(`${base}/none.svc`);
    await page.getByRole("button", { name: "Review" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText())
      .toBe(`cannot install ${base}/none.svc: the server answered 404`);

    served = await signed("1.0.0", AUTHOR);
    await field.fill(address());
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.locator("h3").innerText()).toBe("Updates Demo 1.0.0");
    expect(await review.locator(".author").innerText()).toBe(`Signed by key ${shownKey(AUTHOR)}: new to you.`);
    expect(await review.locator(".sub").allInnerTexts()).toEqual([
      `${ID} · by Example`,
      `Fetched from ${address()}; svc checks there for updates.`,
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, "install-address-dark.png"), fullPage: false });
    await review.getByRole("button", { name: "Install" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 })
      .toBe("Installed Updates Demo 1.0.0.");
    const row = await openExtensionRow(page, "Updates Demo");
    await expect.poll(() => row.locator("code.address").innerText(), { timeout: 10_000 }).toBe(address());
    await page.close();
  });

  it("Check for updates: up to date, a plain update installed, a wider one staged then accepted, another key refused", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    const row = await openExtensionRow(page, "Updates Demo");
    const check = row.getByRole("button", { name: "Check for updates" });
    const said = row.locator(".updates [role=status]");

    await check.click();
    await expect
      .poll(() => said.innerText(), { timeout: 10_000 })
      .toBe(`Updates Demo 1.0.0 is up to date: ${address()} offers 1.0.0.`);

    served = await signed("1.1.0", AUTHOR);
    await check.click();
    await expect.poll(() => said.innerText(), { timeout: 10_000 }).toBe("Updated Updates Demo from 1.0.0 to 1.1.0.");
    expect(await installedVersion()).toBe("1.1.0");

    served = await signed("1.2.0", AUTHOR, ["api.example.com"]);
    await check.click();
    await expect
      .poll(() => said.innerText(), { timeout: 10_000 })
      .toBe(
        `Staged, not installed: Updates Demo 1.2.0 can do more than the installed 1.1.0, which keeps running. To review and accept it: svc-host accept ${ID}, or Settings' "Review update…".`,
      );
    expect(await installedVersion()).toBe("1.1.0");
    await expect
      .poll(() => row.locator(".staged").innerText(), { timeout: 10_000 })
      .toBe(
        "An update to 1.2.0 is staged: it can do more than this version, so it waits for your review. This version keeps running.",
      );
    await row.getByRole("button", { name: "Review update…" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.locator("h3").innerText()).toBe("Updates Demo 1.2.0");
    expect(await review.locator(".author").innerText()).toBe(
      `Signed by key ${shownKey(AUTHOR)}: the same author as the installed version.`,
    );
    expect(await review.getByRole("list", { name: "new reach" }).locator("li").allInnerTexts()).toEqual([
      "+ connect to api.example.com",
    ]);
    await review.getByRole("button", { name: "Update" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, "install-staged-dark.png"), fullPage: false });
    expect(await installedVersion()).toBe("1.1.0");
    await review.getByRole("button", { name: "Update" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 })
      .toBe("Updated Updates Demo 1.2.0.");
    expect(await installedVersion()).toBe("1.2.0");
    await expect.poll(() => row.locator(".staged").count(), { timeout: 10_000 }).toBe(0);
    await expect(access(join(scene.world.home, "Staged", `${ID}.svc`))).rejects.toThrow(/ENOENT/);

    served = await signed("1.3.0", STRANGER, ["api.example.com"]);
    await check.click();
    await expect
      .poll(() => said.innerText(), { timeout: 10_000 })
      .toBe(
        `cannot install updates-demo.svc: this is not from the author you installed: it is signed with key ${shownKey(STRANGER)}, the installed version with key ${shownKey(AUTHOR)}. To install it anyway, uninstall the installed one first (svc-host uninstall ${ID}).`,
      );
    await said.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, "update-other-key-dark.png"), fullPage: false });
    expect(await installedVersion()).toBe("1.2.0");
    await page.close();
  });

  it("the author's lost-key statement, carried by the new key's package, is named in the review", async () => {
    const { json, minisig } = signStatement(
      { v: 1, kind: "lost", id: ID, from: keyLine(AUTHOR), to: keyLine(NEXT), after: "1.2.0", reason: "stolen laptop" },
      AUTHOR,
    );
    served = await signed("1.4.0", NEXT, ["api.example.com"], {
      [STATEMENT_FILES.lost]: json,
      [`${STATEMENT_FILES.lost}.minisig`]: minisig,
    });
    const page = await openUi(scene.world, scene.ui.context);
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByLabel("Path to a .svc file, or its https address").fill(address());
    await page.getByRole("button", { name: "Review" }).click();
    const review = page.getByRole("region", { name: "install review" });
    await review.waitFor();
    expect(await review.locator(".author").innerText()).toBe(
      `Signed by key ${shownKey(NEXT)}: a new key, which its author named when the installed version's key ${shownKey(AUTHOR)} was lost.`,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "install-lost-key-dark.png"), fullPage: false });
    await review.getByRole("button", { name: "Update" }).click();
    await expect
      .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 10_000 })
      .toBe("Updated Updates Demo 1.4.0.");
    // The new key is pinned: what the lost key signs now is another key's, refused.
    served = await signed("1.5.0", AUTHOR, ["api.example.com"]);
    const row = await openExtensionRow(page, "Updates Demo");
    await row.getByRole("button", { name: "Check for updates" }).click();
    await expect
      .poll(() => row.locator(".updates [role=status]").innerText(), { timeout: 10_000 })
      .toBe(
        `cannot install updates-demo.svc: this is not from the author you installed: it is signed with key ${shownKey(AUTHOR)}, the installed version with key ${shownKey(NEXT)}. To install it anyway, uninstall the installed one first (svc-host uninstall ${ID}).`,
      );
    expect(await installedVersion()).toBe("1.4.0");
    await page.close();
  });

  it("an extension not installed from an address has nowhere to check: a clear 400", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    expect(await postFromPage(page, "/api/extensions/update", { extensionId: "com.example.nothing" })).toEqual({
      status: 400,
      body: {
        error:
          "com.example.nothing was not installed from an address, so there is nowhere to look for its updates: install it once from the author's https address (svc-host install https://…/x.svc) and svc remembers it",
      },
    });
    expect(
      await postFromPage(page, "/api/extensions/review", { extensionId: "com.example.nothing", staged: true }),
    ).toEqual({
      status: 400,
      body: {
        error: "no update of com.example.nothing is staged (it was accepted or dropped): check for updates again",
      },
    });
    await page.close();
  });
});
