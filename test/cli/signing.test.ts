/**
 * `svckit keygen`, `svckit pack` signing and `svckit verify`, with real keys: in a file (for CI)
 * and in a real gnome-keyring on a private session bus; the packages checked by the stock
 * `minisign` too.
 */
import { mkdir, readFile, rm, stat, utimes, writeFile, chmod } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { zipContents } from "../../cli/src/pack/zip-entries.js";
import { minisign, provisionMinisign } from "../trust/minisign.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { writeFixture } from "./fixtures.js";
import { svckit, tempFolder } from "./harness.js";

const PASS = { SVC_KEY_PASSPHRASE: "correct horse battery staple" };
const SVC = "fixture-1.2.3.svc";
const KEY_LINE = /^svc-key\.pub: RW[A-Za-z0-9+/]{54}$/;
const DESCRIBED =
  /fingerprint [0-9a-f]{4}( [0-9a-f]{4}){7} \([a-z]+ [a-z]+ [a-z]+ [a-z]+\), minisign key id [0-9A-F]{16}/;

let folder: { dir: string; remove(): Promise<void> };
let ext: string;
beforeAll(() => provisionMinisign());
beforeEach(async () => {
  folder = await tempFolder("svckit-signing-");
  ext = await writeFixture(join(folder.dir, "ext"), { files: { "README.md": "# Fixture" } });
});
afterEach(() => folder.remove());

async function unzip(svc: string, into: string): Promise<void> {
  for (const [name, data] of await zipContents(svc)) {
    await mkdir(dirname(join(into, name)), { recursive: true });
    await writeFile(join(into, name), data);
  }
}

describe("a key in a file (scripts and CI)", () => {
  it("keygen --file writes the encrypted key (0600) and svc-key.pub; pack --key signs; minisign -V and svckit verify accept it", async () => {
    const made = await svckit(["keygen", "--file", "../author.key"], { cwd: ext, env: PASS });
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const lines = made.stdout.split("\n");
    expect(lines[0]).toMatch(KEY_LINE);
    expect(lines[1]).toMatch(new RegExp(`^key ${DESCRIBED.source}$`));
    expect(lines[2]).toBe(`secret key: ${join(folder.dir, "author.key")} (encrypted with SVC_KEY_PASSPHRASE)`);
    expect((await stat(join(folder.dir, "author.key"))).mode & 0o777).toBe(0o600);
    const keyFile = await readFile(join(folder.dir, "author.key"), "utf8");
    expect(JSON.parse(keyFile).encryption).toMatchObject({ kdf: "scrypt" });
    const publicKey = await readFile(join(ext, "svc-key.pub"), "utf8");
    expect(publicKey.split("\n")[1]).toBe(lines[0].slice("svc-key.pub: ".length));

    const packed = await svckit(["pack", "--key", "../author.key"], { cwd: ext, env: PASS });
    expect(packed.stderr).toBe("");
    expect(packed.code).toBe(0);
    expect(packed.stdout.split("\n").at(-1)).toBe(`signed with ${lines[1]}`);
    const entries = [...(await zipContents(join(ext, SVC))).keys()];
    expect(entries).toEqual([
      "README.md",
      "dist/index.js",
      "package.json",
      "svc-key.pub",
      "svc-manifest.json",
      "svc-manifest.json.minisig",
    ]);

    const unpacked = join(folder.dir, "unpacked");
    await unzip(join(ext, SVC), unpacked);
    const checked = minisign(["-Vm", "svc-manifest.json", "-p", "svc-key.pub"], unpacked);
    expect(checked.stdout).toBe(
      "Signature and comment signature verified\nTrusted comment: com.example.fixture 1.2.3\n",
    );
    expect(checked.code).toBe(0);

    const verified = await svckit(["verify", SVC], { cwd: ext });
    expect(verified).toEqual({
      code: 0,
      stderr: "",
      stdout: `com.example.fixture 1.2.3\nsigned by ${lines[1]}\nall 3 files match the signed manifest`,
    });
  });

  it("keygen --file --unencrypted says so; pack --key needs no passphrase then", async () => {
    const made = await svckit(["keygen", "--file", "../author.key", "--unencrypted"], { cwd: ext });
    expect(made.stdout.split("\n")[2]).toBe(
      `secret key: ${join(folder.dir, "author.key")} (NOT encrypted: anyone who reads it can sign as you)`,
    );
    const packed = await svckit(["pack", "--key", "../author.key"], { cwd: ext });
    expect(packed.code).toBe(0);
  });

  it("refuses: no passphrase, --unencrypted without --file, an existing svc-key.pub or key file, a wrong passphrase, another key than svc-key.pub", async () => {
    expect(await svckit(["keygen", "--file", "../author.key"], { cwd: ext })).toEqual({
      code: 1,
      stdout: "",
      stderr: "--file needs a passphrase: set SVC_KEY_PASSPHRASE, or add --unencrypted to keep the key in the clear",
    });
    const usage = await svckit(["keygen", "--unencrypted"], { cwd: ext });
    expect(usage.code).toBe(2);
    expect(usage.stderr.split("\n")[0]).toBe(
      "--unencrypted goes with --file <path>: the OS secret store protects the key itself",
    );
    expect((await svckit(["keygen", "--file", "../author.key"], { cwd: ext, env: PASS })).code).toBe(0);
    const before = await readFile(join(ext, "svc-key.pub"), "utf8");
    const again = await svckit(["keygen", "--file", "../other.key"], { cwd: ext, env: PASS });
    expect(again.stderr).toBe(
      `${join(ext, "svc-key.pub")} exists: this project has a key already. People who installed a package signed with it refuse updates signed with another, so keep it. To start over anyway, delete svc-key.pub first.`,
    );
    expect(await readFile(join(ext, "svc-key.pub"), "utf8")).toBe(before);
    await rm(join(ext, "svc-key.pub"));
    expect((await svckit(["keygen", "--file", "../author.key"], { cwd: ext, env: PASS })).stderr).toBe(
      `${join(folder.dir, "author.key")} exists: choose another path, nothing was overwritten`,
    );
    await writeFile(join(ext, "svc-key.pub"), before);
    const wrong = await svckit(["pack", "--key", "../author.key"], { cwd: ext, env: { SVC_KEY_PASSPHRASE: "wrong" } });
    expect(wrong.stderr.split("\n").at(-1)).toBe(
      `cannot open ${join(folder.dir, "author.key")}: the passphrase in SVC_KEY_PASSPHRASE is not this key's (or the file was changed)`,
    );
    expect(wrong.code).toBe(1);
    const other = join(folder.dir, "other");
    await writeFixture(other);
    await svckit(["keygen", "--file", "../other.key"], { cwd: other, env: PASS });
    const mismatch = await svckit(["pack", "--key", "../other.key"], { cwd: ext, env: PASS });
    expect(mismatch.stderr.split("\n").at(-1)).toMatch(
      /^the key in \/.+\/other\.key \([0-9A-F]{16}\) is not the one svc-key\.pub names \([0-9A-F]{16}\): people who installed a package signed with [0-9A-F]{16} would refuse this one\. Use that key's file\.$/,
    );
    await expect(stat(join(ext, SVC))).rejects.toThrow("ENOENT");
  });
});

describe("unsigned and tampered packages", () => {
  it("pack without a key says plainly it is unsigned; verify exits 1 saying anyone could have made it", async () => {
    const packed = await svckit(["pack"], { cwd: ext });
    expect(packed.code).toBe(0);
    expect(packed.stderr).toBe(
      "not signed: there is no svc-key.pub here, so people are told anyone could have made it, and cannot tell your updates from a stranger's. Run svckit keygen once, then pack again.",
    );
    expect(await svckit(["verify", SVC], { cwd: ext })).toEqual({
      code: 1,
      stdout: "",
      stderr: `${SVC}: unsigned: anyone could have made this. Its author can sign it: svckit keygen, then svckit pack.`,
    });
  });

  it("verify refuses a package with one file changed after signing", async () => {
    await svckit(["keygen", "--file", "../author.key", "--unencrypted"], { cwd: ext });
    await svckit(["pack", "--key", "../author.key"], { cwd: ext });
    const unpacked = join(folder.dir, "unpacked");
    await unzip(join(ext, SVC), unpacked);
    await writeFile(join(unpacked, "dist/index.js"), "/* changed */", { flag: "a" });
    const { writeArchive } = await import("../../cli/src/pack/archive.js");
    const contents = await zipContents(join(ext, SVC));
    contents.set("dist/index.js", await readFile(join(unpacked, "dist/index.js")));
    await writeArchive(contents, join(folder.dir, "tampered.svc"));
    expect(await svckit(["verify", "../tampered.svc"], { cwd: ext })).toEqual({
      code: 1,
      stdout: "",
      stderr: `../tampered.svc: refused: its files do not match what the author signed: "dist/index.js" does not match the signed manifest`,
    });
  });
});

describe("deterministic packages", () => {
  it("packs the same bytes twice, with the files touched and their modes changed in between, signed or not", async () => {
    await svckit(["pack"], { cwd: ext });
    const first = await readFile(join(ext, SVC));
    await utimes(join(ext, "README.md"), new Date("2031-05-06T07:08:09Z"), new Date("2031-05-06T07:08:09Z"));
    await chmod(join(ext, "README.md"), 0o755);
    await svckit(["pack"], { cwd: ext });
    expect((await readFile(join(ext, SVC))).equals(first)).toBe(true);

    await svckit(["keygen", "--file", "../author.key", "--unencrypted"], { cwd: ext });
    await svckit(["pack", "--key", "../author.key"], { cwd: ext });
    const signed = await readFile(join(ext, SVC));
    await utimes(join(ext, "package.json"), new Date(), new Date());
    await svckit(["pack", "--key", "../author.key"], { cwd: ext });
    // Ed25519 signatures are deterministic too: the whole package is the same bytes.
    expect((await readFile(join(ext, SVC))).equals(signed)).toBe(true);
  });
});

describe("a lost key (svckit rotate --lost-after)", () => {
  it("signs the loss with the old key, which minisign -V accepts; pack carries it; both options or neither", async () => {
    await svckit(["keygen", "--file", "../old.key", "--unencrypted"], { cwd: ext });
    const oldPub = join(folder.dir, "old.pub");
    await writeFile(oldPub, await readFile(join(ext, "svc-key.pub")));
    const fresh = join(folder.dir, "fresh");
    await writeFixture(fresh);
    await svckit(["keygen", "--file", "../new.key", "--unencrypted"], { cwd: fresh });
    const newPub = join(fresh, "svc-key.pub");

    const half = await svckit(["rotate", "--to", newPub, "--key", "../old.key", "--lost-after", "1.2.0"], {
      cwd: ext,
    });
    expect(half.code).toBe(2);
    expect(half.stderr.split("\n")[0]).toBe("a lost key needs both --lost-after <version> and --reason <text>");
    const long = await svckit(
      ["rotate", "--to", newPub, "--key", "../old.key", "--lost-after", "1.2.0", "--reason", "x".repeat(301)],
      { cwd: ext },
    );
    expect(long.code).toBe(1);
    expect(long.stderr).toBe("--reason must be one line of at most 300 characters");

    const lost = await svckit(
      ["rotate", "--to", newPub, "--key", "../old.key", "--lost-after", "1.2.0", "--reason", "my laptop was stolen"],
      { cwd: ext },
    );
    expect(lost.stderr).toBe("");
    expect(lost.stdout.split("\n")[0]).toMatch(
      /^svc-key-lost\.json: key fingerprint .* of com\.example\.fixture is lost after 1\.2\.0; com\.example\.fixture moves to key fingerprint /,
    );
    expect(JSON.parse(await readFile(join(ext, "svc-key-lost.json"), "utf8"))).toMatchObject({
      kind: "lost",
      id: "com.example.fixture",
      after: "1.2.0",
      reason: "my laptop was stolen",
    });
    const checked = minisign(["-Vm", "svc-key-lost.json", "-p", oldPub], ext);
    expect(checked.stderr).toBe("");
    expect(checked.stdout).toContain("Trusted comment: lost com.example.fixture");
    expect(await readFile(join(ext, "svc-key.pub"), "utf8")).toBe(await readFile(newPub, "utf8"));
    expect((await svckit(["pack", "--key", "../new.key"], { cwd: ext })).code).toBe(0);
    const names = [...(await zipContents(join(ext, SVC))).keys()];
    expect(names).toContain("svc-key-lost.json");
    expect(names).toContain("svc-key-lost.json.minisig");
  });
});

describe("a key in the OS secret store (real gnome-keyring)", () => {
  useSessionKeyring();

  it("keygen keeps the secret in the store; pack finds it through svc-key.pub and signs", async () => {
    const made = await svckit(["keygen"], { cwd: ext });
    expect(made.stderr).toBe("");
    expect(made.stdout.split("\n")[2]).toBe("secret key: in the OS secret store");
    const packed = await svckit(["pack"], { cwd: ext });
    expect(packed.stderr).toBe("");
    expect(packed.stdout.split("\n").at(-1)).toBe(`signed with ${made.stdout.split("\n")[1]}`);
    expect((await svckit(["verify", SVC], { cwd: ext })).code).toBe(0);
  });

  it("pack refuses, writing nothing, when svc-key.pub names a key the store does not hold", async () => {
    const elsewhere = join(folder.dir, "elsewhere");
    await writeFixture(elsewhere);
    await svckit(["keygen", "--file", "../k.key", "--unencrypted"], { cwd: elsewhere });
    await writeFile(join(ext, "svc-key.pub"), await readFile(join(elsewhere, "svc-key.pub")));
    const packed = await svckit(["pack"], { cwd: ext });
    expect(packed.code).toBe(1);
    expect(packed.stderr.split("\n").slice(-2).join("\n")).toMatch(
      /^svc-key\.pub names key [0-9A-F]{16}, but its secret key is not in this computer's OS secret store\.\nSign with its key file: svckit pack --key <path> \(passphrase from SVC_KEY_PASSPHRASE\)\.$/,
    );
    await expect(stat(join(ext, SVC))).rejects.toThrow("ENOENT");
  });
});
