/**
 * Installing real .svc files into a temp support folder: honest packages, updates, and hostile
 * archives built byte by byte.
 */
import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir, lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installPackage, InstallError, type InstallSummary } from "./index.js";
import { Ledger } from "../ledger/index.js";
import { MemorySecretStore } from "../secrets/index.js";
import { packageJson, writeSvc } from "../../../test/trust/svc-package.js";
import { zipBytes, type RawEntry } from "../../../test/trust/zip-bytes.js";

let root: string;
let support: string;
let shown: InstallSummary[];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-install-"));
  support = join(root, "Svc");
  shown = [];
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const yes = async (summary: InstallSummary) => (shown.push(summary), true);
const CODE = "module.exports = { default: {} };";

async function raw(entries: RawEntry[], name = "hostile.svc"): Promise<string> {
  const file = join(root, name);
  await writeFile(file, zipBytes(entries));
  return file;
}

/** Expects the install to be refused with exactly `message`, and nothing to be installed or left behind. */
async function expectRefused(file: string, message: string): Promise<void> {
  const refusal = await installPackage(file, { supportDir: support, confirm: yes }).catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(InstallError);
  expect((refusal as Error).message).toBe(message);
  expect(shown).toEqual([]);
  expect(await readdir(support).catch(() => [])).toEqual([]);
  // Nothing escaped next to the support folder either (the empty support folder may remain).
  expect((await readdir(root)).filter((name) => name !== "Svc")).toEqual([file.split("/").pop()]);
}

const good = (extra: RawEntry[] = []): RawEntry[] => [
  { name: "package.json", data: packageJson() },
  { name: "dist/index.js", data: CODE },
  ...extra,
];

describe("an honest package", () => {
  it("installs into Extensions/<id>/ after confirm, and not before", async () => {
    const file = join(root, "deploys-1.2.0.svc");
    await writeSvc(file, {
      "package.json": packageJson(),
      "dist/index.js": CODE,
      "dist/tools.json": "[]",
      "README.md": "# Deploys",
    });
    const declined = await installPackage(file, { supportDir: support, confirm: () => false });
    expect(declined.installed).toBe(false);
    expect(await readdir(support).catch(() => [])).toEqual([]);

    const ledger = await Ledger.open({ supportRoot: support, secrets: new MemorySecretStore() });
    const result = await installPackage(file, { supportDir: support, confirm: yes, ledger });
    expect(result).toMatchObject({
      installed: true,
      id: "com.example.deploys",
      path: join(support, "Extensions", "com.example.deploys"),
    });
    expect(await readFile(join(result.path, "dist", "index.js"), "utf8")).toBe(CODE);
    expect((await readdir(result.path)).sort()).toEqual(["README.md", "dist", "package.json"]);
    // The staging folder is gone; Extensions, the bundle compiled for its first start and the
    // approval in the permission ledger remain.
    expect((await readdir(support)).sort()).toEqual(["Data", "Extensions", "ledger.json"]);
    const standing = await ledger.standing("com.example.deploys");
    expect(standing.kind === "approved" && Object.keys(standing.approval.files)).toEqual([
      "README.md",
      "dist/index.js",
      "dist/tools.json",
      "package.json",
    ]);
    expect(await readdir(join(support, "Data", ".compiled-code"))).toEqual([
      expect.stringMatching(/^com\.example\.deploys\.[0-9a-f]{64}\.qjsc$/),
    ]);
  });

  it("updates in place, and says what the new version gained", async () => {
    const v1 = join(root, "v1.svc");
    const v2 = join(root, "v2.svc");
    await writeSvc(v1, {
      "package.json": packageJson({ permissions: { network: ["api.example.com"] } }),
      "dist/index.js": CODE,
      "old.txt": "old",
    });
    await writeSvc(v2, {
      "package.json": packageJson(
        { permissions: { network: ["api.example.com", "*.uploads.example.com"], exec: ["git"] } },
        { version: "1.3.0" },
      ),
      "dist/index.js": "module.exports = {};",
    });
    await installPackage(v1, { supportDir: support, confirm: yes });
    const result = await installPackage(v2, { supportDir: support, confirm: yes });
    expect(result.summary.replaces).toMatchObject({ version: "1.2.0", differentPackage: false });
    expect(result.summary.replaces!.gained.map((item) => item.text)).toEqual([
      "connect to any address ending in .uploads.example.com",
      "run the program git",
    ]);
    expect(result.summary.text).toContain(
      "This updates the installed Deploys 1.2.0.\nCompared with 1.2.0, it can now also:\n  ! connect to any address ending in .uploads.example.com — a wildcard covers every server under that name\n  ! run the program git — it can run other programs through its settings; svc lets it run only a few safe subcommands\n",
    );
    // The old folder was replaced, not merged.
    expect((await readdir(result.path)).sort()).toEqual(["dist", "package.json"]);
  });

  it("shows a package with another name but the same id as a risky replacement", async () => {
    const mine = join(root, "mine.svc");
    const theirs = join(root, "theirs.svc");
    await writeSvc(mine, { "package.json": packageJson(), "dist/index.js": CODE });
    await writeSvc(theirs, {
      "package.json": packageJson({ title: "Totally Deploys" }, { name: "not-deploys", version: "9.0.0" }),
      "dist/index.js": CODE,
    });
    await installPackage(mine, { supportDir: support, confirm: yes });
    const declined = await installPackage(theirs, { supportDir: support, confirm: (s) => (shown.push(s), false) });
    expect(declined.summary.risky).toBe(true);
    expect(declined.summary.text).toContain(
      '! This replaces "Deploys" 1.2.0 (package deploys), a different package installed with the same id.',
    );
    expect(
      JSON.parse(await readFile(join(support, "Extensions", "com.example.deploys", "package.json"), "utf8")).name,
    ).toBe("deploys");
  });

  it("replaces a dev-linked extension's link without touching the developer's folder", async () => {
    const devFolder = join(root, "dev-deploys");
    await mkdir(devFolder);
    await writeFile(join(devFolder, "keep.txt"), "mine");
    await writeFile(
      join(devFolder, "package.json"),
      JSON.stringify({ name: "deploys", version: "0.9.0", svc: { id: "com.example.deploys", title: "Deploys" } }),
    );
    await mkdir(join(support, "Extensions"), { recursive: true });
    await symlink(devFolder, join(support, "Extensions", "com.example.deploys"));
    const file = await raw(good(), "deploys.svc");
    const { summary } = await installPackage(file, { supportDir: support, confirm: yes });
    // The review says what is there is a dev link, not an installed copy.
    expect(summary.replaces?.devLink).toBe(devFolder);
    expect(summary.text).toContain(
      `This replaces the dev link to ${devFolder} (svckit dev): the package's own copy takes its place; that folder stays.`,
    );
    expect((await lstat(join(support, "Extensions", "com.example.deploys"))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(devFolder, "keep.txt"), "utf8")).toBe("mine");
  });

  it("accepts exactly 2,000 entries", async () => {
    const file = await raw(
      good(Array.from({ length: 1_998 }, (_, i) => ({ name: `assets/${i}.txt`, data: "x", deflate: false }))),
    );
    expect((await installPackage(file, { supportDir: support, confirm: yes })).installed).toBe(true);
  });
});

describe("a hostile or broken package is refused, with nothing installed", () => {
  it.each([
    ["../../.bashrc", 'entry "../../.bashrc" would be written outside the extension\'s folder'],
    ["dist/../../evil.js", 'entry "dist/../../evil.js" would be written outside the extension\'s folder'],
    ["/etc/evil", 'entry "/etc/evil" has an absolute path'],
    ["dist\\..\\..\\evil.js", 'entry "dist\\\\..\\\\..\\\\evil.js" uses backslashes in its path'],
    ["C:/evil.js", 'entry "C:/evil.js" names a drive'],
    ["c:evil.js", 'entry "c:evil.js" names a drive'],
    ["dist//x.js", 'entry "dist//x.js" has an empty or "." path part'],
  ])("zip-slip name %j", async (name, why) => {
    await expectRefused(await raw(good([{ name, data: "pwned" }])), `cannot install hostile.svc: refused: ${why}`);
  });

  it("a symbolic link entry", async () => {
    const file = await raw(good([{ name: "dist/link", data: "/etc/passwd", mode: 0o120777, deflate: false }]));
    await expectRefused(file, 'cannot install hostile.svc: refused: entry "dist/link" is a symbolic link');
  });

  it("two entries landing on one file", async () => {
    await expectRefused(
      await raw(good([{ name: "DIST/index.js", data: "again" }])),
      'cannot install hostile.svc: refused: entry "DIST/index.js" appears twice',
    );
  });

  it("2,001 entries", async () => {
    const file = await raw(
      good(Array.from({ length: 1_999 }, (_, i) => ({ name: `assets/${i}.txt`, data: "x", deflate: false }))),
    );
    await expectRefused(file, "cannot install hostile.svc: refused: the package has 2001 entries; the most is 2000");
  });

  it("a zip bomb: past 100:1, counted while inflating; exactly 100:1 passes", async () => {
    const zeros = Buffer.alloc(2_000_000);
    const atLimit = await raw(good([{ name: "assets/zeros.bin", data: zeros, packedSize: 20_000 }]), "at-limit.svc");
    expect((await installPackage(atLimit, { supportDir: support, confirm: yes })).installed).toBe(true);
    await rm(support, { recursive: true });
    await rm(atLimit);
    shown = [];
    await expectRefused(
      await raw(good([{ name: "assets/zeros.bin", data: zeros, packedSize: 19_999 }])),
      'cannot install hostile.svc: refused: entry "assets/zeros.bin" unpacks to more than 100 times its packed size (a zip bomb)',
    );
  });

  it("a header that understates the unpacked size", async () => {
    const file = await raw(good([{ name: "assets/lie.bin", data: Buffer.alloc(5_000, 7), claimedSize: 10 }]));
    const refusal = (await installPackage(file, { supportDir: support, confirm: yes }).catch((e: Error) => e)) as Error;
    expect(refusal.message).toMatch(/^cannot install hostile\.svc: refused: entry "assets\/lie\.bin" is damaged: /);
  });

  it("an entry of 20 MB passes; one byte more is refused", async () => {
    const limit = 20 * 1024 * 1024;
    const atLimit = await raw(
      good([{ name: "assets/big.bin", data: Buffer.alloc(limit, 1), deflate: false }]),
      "big.svc",
    );
    expect((await installPackage(atLimit, { supportDir: support, confirm: yes })).installed).toBe(true);
    await rm(support, { recursive: true });
    await rm(atLimit);
    shown = [];
    await expectRefused(
      await raw(good([{ name: "assets/big.bin", data: Buffer.alloc(limit + 1, 1), deflate: false }])),
      'cannot install hostile.svc: refused: entry "assets/big.bin" is larger than 20 MB once unpacked',
    );
  });

  it("50 MB in all passes; one byte more is refused", async () => {
    const mb = 1024 * 1024;
    const parts = (last: number): RawEntry[] => [
      { name: "a.bin", data: Buffer.alloc(20 * mb, 1), deflate: false },
      { name: "b.bin", data: Buffer.alloc(20 * mb, 2), deflate: false },
      { name: "c.bin", data: Buffer.alloc(last, 3), deflate: false },
    ];
    const small = Buffer.byteLength(packageJson()) + CODE.length;
    const atLimit = await raw(good(parts(10 * mb - small)), "all.svc");
    expect((await installPackage(atLimit, { supportDir: support, confirm: yes })).installed).toBe(true);
    await rm(support, { recursive: true });
    await rm(atLimit);
    shown = [];
    await expectRefused(
      await raw(good(parts(10 * mb - small + 1))),
      "cannot install hostile.svc: refused: the package is larger than 50 MB once unpacked",
    );
  });

  it("a corrupt zip", async () => {
    const bytes = zipBytes(good());
    const file = join(root, "hostile.svc");
    await writeFile(file, bytes.subarray(0, bytes.length - 30));
    const refusal = (await installPackage(file, { supportDir: support, confirm: yes }).catch((e: Error) => e)) as Error;
    expect(refusal).toBeInstanceOf(InstallError);
    expect(refusal.message).toMatch(/^cannot install hostile\.svc: not a readable \.svc package \(a zip file\): /);
    await writeFile(file, "not a zip at all");
    await expect(installPackage(file, { supportDir: support, confirm: yes })).rejects.toThrow(
      /^cannot install hostile\.svc: not a readable \.svc package/,
    );
  });

  it("no package.json, or one that is not a valid manifest", async () => {
    await expectRefused(
      await raw([{ name: "dist/index.js", data: CODE }]),
      "cannot install hostile.svc has no package.json",
    );
    await rm(join(root, "hostile.svc"));
    await expectRefused(
      await raw([
        { name: "package.json", data: packageJson({ interval: "5s" }) },
        { name: "dist/index.js", data: CODE },
      ]),
      'cannot install hostile.svc: "svc.interval" should be at least 10s',
    );
  });

  it("no dist/index.js", async () => {
    await expectRefused(
      await raw([
        { name: "package.json", data: packageJson() },
        { name: "src/index.ts", data: "export {}" },
      ]),
      "cannot install hostile.svc: it has no dist/index.js; build it with svckit build, then svckit pack",
    );
  });

  it("a development id (dev.svc.…)", async () => {
    await expectRefused(
      await raw([
        { name: "package.json", data: packageJson({ id: "dev.svc.deploys" }) },
        { name: "dist/index.js", data: CODE },
      ]),
      'cannot install hostile.svc: "dev.svc.deploys" is a development id (dev.svc.…), only for svckit dev; give it its own id',
    );
  });

  it("a description ending in \\u001b[8m (it hid every line below it and the [y/N] prompt) is refused before any prompt", async () => {
    const file = await raw([
      { name: "package.json", data: packageJson({ description: "Shows your deploys.\u001b[8m" }) },
      { name: "dist/index.js", data: CODE },
    ]);
    const refusal = await installPackage(file, { supportDir: support, confirm: yes }).catch((e: unknown) => e);
    expect((refusal as Error).message).toMatch(
      /^cannot install hostile\.svc: .*"svc\.description" should not contain U\+001B \(a control or bidi character; found at 19\)/,
    );
    expect(shown).toEqual([]);
  });
});
