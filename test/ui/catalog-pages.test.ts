/**
 * Each catalog extension, end to end, as a person gets it: a fresh support folder, the real host
 * and page in Chromium, Settings → Add extensions → Add… (by keyboard) → the install review →
 * Install → its options and secrets typed into Settings (a url option allowed) → its first blip,
 * answered from its recording through the runtime's test replay switch (SVC_TEST_REPLAY; its
 * clock at page.json's "now" through SVC_TEST_NOW),
 * shows page.json's text. Screenshots, dark and light: docs/screenshots/catalog-<name>-*.png
 * (with SVC_WRITE_SCREENSHOTS=1).
 *
 * Parametrised over every extensions/<name>/test/page.json present, plus test/catalog/fixture/.
 * The catalog is built here, as extensions/build.mjs builds it, with a key made for this run.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstPartyKey, packCatalog } from "svckit";
import type { CatalogIndex } from "@svc/api";
import { makeWorld, startHost } from "../host/harness.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { launchChromium, openExtensionRow, openUi, postFromPage, SCREENSHOTS } from "./harness.js";
import { catalogPages, type CatalogPage } from "../catalog/pages.js";

const PAGES = catalogPages();
const session = useSessionKeyring();
let root: string;
let index: CatalogIndex;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-catalog-root-"));
  // Nothing on by default: the page shows only what was added from the catalog.
  await writeFile(join(root, "bundled.json"), JSON.stringify({ onByDefault: [] }));
  const built = await packCatalog({
    folders: PAGES.map((p) => p.folder),
    outDir: join(root, "catalog"),
    key: await firstPartyKey({}, join(root, "key")),
    out: { info: () => {}, warn: () => {} },
  });
  // A catalog extension that does not pack fails here, by name, with its reason.
  expect(built.failures).toEqual([]);
  index = built.index;
}, 300_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** A fresh svc on the catalog root, with its page open in Chromium. */
async function freshSvc(env: Record<string, string> = {}) {
  const world = await makeWorld();
  const host = await startHost(world, {
    SVC_HOST_CLOCK: "system",
    SVC_BUNDLED_EXTENSIONS: root,
    DBUS_SESSION_BUS_ADDRESS: session.bus.address,
    ...env,
  });
  const ui = await launchChromium({ colorScheme: "dark" });
  return {
    world,
    host,
    page: await openUi(world, ui.context),
    async close() {
      await ui.close();
      await host.stop();
      await world.remove();
    },
  };
}

describe("Settings → Add extensions", () => {
  it("lists every catalog package, none of them running until added", { timeout: 60_000 }, async () => {
    const svc = await freshSvc();
    try {
      const { page } = svc;
      await page.getByRole("tab", { name: "Settings" }).click();
      const list = page.getByRole("list", { name: "Extensions to add" });
      await list.waitFor();
      expect(await list.locator(".catalog-item h3").allInnerTexts()).toEqual(index.packages.map((p) => p.title));
      expect(await list.locator(".catalog-sentence").allInnerTexts()).toEqual(index.packages.map((p) => p.description));
      // Who signed them, and that a key made by this build is not a release key.
      expect(await page.locator(".catalog > p.sub").first().innerText()).toBe(
        `They come with svc, signed by ${index.signedBy.words} (${index.signedBy.fingerprint}), a key this copy of svc made for itself, not a release key. Each is reviewed before it is added.`,
      );
      // Discovery found nothing to run: the catalog's folders are not extensions until added.
      const listing = await svc.host.waitFor((e) => e.type === "extensions");
      expect([listing.active, listing.broken]).toEqual([[], []]);
      expect(await page.locator(".ext-row").count()).toBe(0);
      // The review takes a catalog name, never a path in disguise, and one source at a time.
      const names = index.packages.map((p) => p.name).join(", ");
      expect(await postFromPage(page, "/api/install/review", { catalog: "../../etc/passwd" })).toEqual({
        status: 400,
        body: { error: `no catalog package named "../../etc/passwd"; there are: ${names}` },
      });
      expect(
        await postFromPage(page, "/api/install/review", { catalog: index.packages[0].name, path: "/x.svc" }),
      ).toEqual({
        status: 400,
        body: {
          error:
            'send one of "path" (the .svc file\'s full path), "handle" (a file dropped in the svc app), "address" (its https address) or "catalog" (a name from the catalog)',
        },
      });
      for (const scheme of ["dark", "light"] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
        await page.locator(".catalog").screenshot({ path: join(SCREENSHOTS, `catalog-settings-${scheme}.png`) });
      }
    } finally {
      await svc.close();
    }
  });
});

/** Types `value` into option `name` of the open Settings row, as a person does (a url option then allowed). */
async function setOption(row: import("playwright-core").Locator, spec: CatalogPage, name: string, value: unknown) {
  const option = spec.manifest.svc.preferences.find((p) => p.name === name)!;
  // A required option's label ends in " *".
  const label = new RegExp(`^${option.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\*)?$`);
  const field = row.getByLabel(label);
  switch (option.type) {
    case "dropdown":
      await field.selectOption(String(value));
      break;
    case "checkbox":
      await field.setChecked(value === true);
      break;
    default:
      await field.fill(String(value));
      await field.press("Tab");
  }
  if (option.type === "url") {
    const prompt = row.getByRole("alertdialog", { name: "Allow a server" });
    await prompt.getByRole("button", { name: "Allow", exact: true }).click();
  }
  // The field's own status line: "saved" (or "saved; it may connect to …"), else the page's problem.
  const status = row.locator(".pref", { has: row.page().getByLabel(label) }).getByRole("status");
  await expect.poll(() => status.innerText().catch(() => ""), { timeout: 15_000 }).toMatch(/^saved/);
}

describe.each(PAGES.map((spec) => [spec.name, spec] as const))("catalog extension %s", (name, spec) => {
  it(
    "installs from Settings → Add extensions through the review and shows its first blip",
    { timeout: 120_000 },
    async () => {
      if (spec.page.signedIn)
        throw new Error(
          `${name}/test/page.json asks for a sign-in ("signedIn": true): this test cannot sign in offline yet; give it a token option in "secrets" instead`,
        );
      const { id, title } = spec.manifest.svc;
      const entry = index.packages.find((p) => p.name === name)!;
      const svc = await freshSvc({
        ...(spec.recording ? { SVC_TEST_REPLAY: JSON.stringify({ [id]: spec.recording }) } : {}),
        ...(spec.page.now ? { SVC_TEST_NOW: spec.page.now } : {}),
      });
      try {
        const { page, host } = svc;
        await page.getByRole("tab", { name: "Settings" }).click();
        const item = page.locator(`.catalog-item[data-catalog="${name}"]`);
        await item.waitFor();
        expect(await item.locator("h3").innerText()).toBe(title);
        expect(await item.locator(".catalog-sentence").innerText()).toBe(entry.description);
        const listed = (await item.locator(".reach li").allInnerTexts()).map((t) => t.replace(/^⚠ /, ""));

        // Add… by keyboard: the review opens and takes the focus.
        await item.getByRole("button", { name: "Add…" }).focus();
        await page.keyboard.press("Enter");
        const review = page.getByRole("region", { name: "install review" });
        await review.waitFor();
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
          .toBe("install review");
        expect(await review.locator("h3").innerText()).toBe(`${title} ${entry.version}`);
        expect(await review.locator(".author").innerText()).toBe(
          `Signed by key ${index.signedBy.fingerprint} (${index.signedBy.words}): new to you.`,
        );
        // What the list said it can reach is what the review says (one function computes both).
        const reviewed =
          spec.manifest.svc.permissions.network.length || listed.length
            ? (await review.getByRole("list", { name: "reach" }).locator("li").allInnerTexts()).map((t) =>
                t.replace(/^⚠ /, "").replace(/ — .*$/s, ""),
              )
            : [];
        expect(reviewed).toEqual(listed);
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Install");
        await page.keyboard.press("Enter");
        await expect
          .poll(() => page.locator(".install [role=status]").innerText(), { timeout: 15_000 })
          .toBe(`Installed ${title} ${entry.version}.`);
        await expect.poll(() => item.locator(".catalog-added").count(), { timeout: 10_000 }).toBe(1);

        const row = await openExtensionRow(page, title);
        for (const [option, value] of Object.entries({ ...spec.page.preferences, ...spec.page.secrets }))
          await setOption(row, spec, option, value);

        await page.getByRole("tab", { name: "Blips" }).click();
        const blip = page.locator(`[data-blip="${id}/${spec.page.expect.blip}"]`);
        await expect.poll(() => blip.innerText().catch(() => ""), { timeout: 30_000 }).toContain(spec.page.expect.text);
        await blip.scrollIntoViewIfNeeded();
        for (const scheme of ["dark", "light"] as const) {
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
          await page.locator("#panel").screenshot({ path: join(SCREENSHOTS, `catalog-${name}-${scheme}.png`) });
        }
        // The runtime said which test switches were on.
        const said = host.stderr() + JSON.stringify(host.events);
        if (spec.recording) expect(said).toContain(`TEST SWITCH SVC_TEST_REPLAY is set: fetches of ${id}`);
        if (spec.page.now)
          expect(said).toContain(
            `TEST SWITCH SVC_TEST_NOW is set: every extension's clock starts at ${spec.page.now.slice(0, 16)}`,
          );
      } finally {
        await svc.close();
      }
    },
  );
});
