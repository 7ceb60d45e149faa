/**
 * Signed packages end to end with real processes: keys made by the real `svckit keygen`, packages
 * by the real `svckit pack --key`, installed by the real `svc-host install`. An update signed by
 * the same key installs; one signed by another key for the same id, an unsigned one, an older one
 * and a tampered one are refused, and the installed version stays.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { useHostWorld } from "../host/harness.js";
import { svckitProcess } from "../cli/harness.js";
import { writeFixture } from "../cli/fixtures.js";
import { zipContents } from "../../cli/src/pack/zip-entries.js";
import { writeArchive } from "../../cli/src/pack/archive.js";
import { svcHost } from "./svc-host.js";
import { exists, signedPackages } from "./signed-packages.js";
import { keyFingerprint, keyWords, parsePublicKey } from "@svc/api/signing";

const scene = useHostWorld();
const ID = "com.example.fixture";
const { keyFile, packed, installedVersion } = signedPackages(scene, ID);

describe("svc-host install of signed packages", () => {
  it("pins the author's key, takes updates only from it, never unsigned, never older without --downgrade, never tampered", async () => {
    const first = await svcHost(["install", await packed("v1", "1.0.0", "author.key"), "--yes"], scene.world.home);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.split("\n")[1]).toMatch(
      /^Signed by key [0-9a-f]{4}( [0-9a-f]{4}){7} \([a-z]+ [a-z]+ [a-z]+ [a-z]+\): new to you\.$/,
    );
    const authorKey = first.stdout.split("\n")[1].slice("Signed by key ".length, -": new to you.".length);

    const same = await svcHost(["install", await packed("v2", "1.1.0", "author.key"), "--yes"], scene.world.home);
    expect(same.code).toBe(0);
    expect(same.stdout.split("\n")[1]).toBe(`Signed by key ${authorKey}: the same author as the installed version.`);
    expect(await installedVersion()).toBe("1.1.0");

    const strangerFile = await packed("stranger", "2.0.0", "stranger.key");
    const stranger = await svcHost(["install", strangerFile, "--yes"], scene.world.home);
    expect(stranger.code).toBe(1);
    expect(stranger.stdout).toBe("");
    expect(stranger.stderr).toMatch(
      new RegExp(
        `^svc-host install: cannot install fixture-2\\.0\\.0\\.svc: this is not from the author you installed: it is signed with key [^,]+, the installed version with key ${authorKey.replace(/[()]/g, "\\$&")}\\. To install it anyway, uninstall the installed one first \\(svc-host uninstall ${ID}\\)\\.\n$`,
      ),
    );

    const unsigned = await svcHost(["install", await packed("unsigned", "2.0.0"), "--yes"], scene.world.home);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toBe(
      `svc-host install: cannot install fixture-2.0.0.svc: it is unsigned, and the installed version is signed by its author (key ${authorKey}); an unsigned package never replaces a signed one. Ask the author for a signed package.\n`,
    );

    const older = join(scene.world.root, "v1", "fixture-1.0.0.svc");
    expect((await svcHost(["install", older, "--yes"], scene.world.home)).stderr).toBe(
      "svc-host install: cannot install fixture-1.0.0.svc: it is version 1.0.0, older than the installed 1.1.0; to go back to it, run again with --downgrade\n",
    );

    const contents = await zipContents(await packed("v3", "1.2.0", "author.key"));
    contents.set("dist/index.js", Buffer.concat([contents.get("dist/index.js")!, Buffer.from("\n;globalThis.x=1;")]));
    const tampered = join(scene.world.root, "fixture-1.2.0.svc");
    await writeArchive(contents, tampered);
    expect((await svcHost(["install", tampered, "--yes"], scene.world.home)).stderr).toBe(
      'svc-host install: cannot install fixture-1.2.0.svc: refused: its files do not match what the author signed: "dist/index.js" does not match the signed manifest\n',
    );
    expect(await installedVersion()).toBe("1.1.0");

    const back = await svcHost(["install", older, "--yes", "--downgrade"], scene.world.home);
    expect(back.code).toBe(0);
    expect(await installedVersion()).toBe("1.0.0");
    // Six packs and eight installs, each a real process, on a machine other work shares.
  }, 180_000);

  it("stages an update that gains anything: the installed version stays until svc-host accept", async () => {
    expect(
      (await svcHost(["install", await packed("s1", "1.0.0", "author.key"), "--yes"], scene.world.home)).code,
    ).toBe(0);
    const ledger = () => readFile(join(scene.world.home, "ledger.json"), "utf8");
    const approved = await ledger();
    const wider = await packed("s2", "1.1.0", "author.key", {
      permissions: { network: ["api.example.com"], files: [], exec: [] },
    });
    const staged = await svcHost(["install", wider, "--yes"], scene.world.home);
    expect(staged.stderr).toBe("");
    expect(staged.code).toBe(0);
    expect(staged.stdout).toContain("Compared with 1.0.0, it can now also:\n  • connect to api.example.com\n");
    expect(
      staged.stdout.endsWith(
        `Staged, not installed: Fixture 1.1.0 can do more than the installed 1.0.0, which keeps running. To review and accept it: svc-host accept ${ID}\n`,
      ),
    ).toBe(true);
    expect(await installedVersion()).toBe("1.0.0");
    expect(await ledger()).toBe(approved);
    expect(await exists(join(scene.world.home, "Staged", `${ID}.svc`))).toBe(true);

    // A script cannot accept without saying so; the person's --yes installs it, checked again.
    const unasked = await svcHost(["accept", ID], scene.world.home);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toBe(
      "svc-host accept: not installed: stdin is not a terminal to ask on; run again with --yes to agree\n",
    );
    expect(await installedVersion()).toBe("1.0.0");
    const accepted = await svcHost(["accept", ID, "--yes"], scene.world.home);
    expect(accepted.stderr).toBe("");
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain("Compared with 1.0.0, it can now also:\n  • connect to api.example.com\n");
    expect(accepted.stdout).toContain(`Installed Fixture 1.1.0 in ${join(scene.world.user, ID)}\n`);
    expect(await installedVersion()).toBe("1.1.0");
    expect(await exists(join(scene.world.home, "Staged", `${ID}.svc`))).toBe(false);

    // An update that gains nothing installs at once.
    const same = await packed("s3", "1.2.0", "author.key", {
      permissions: { network: ["api.example.com"], files: [], exec: [] },
    });
    const plain = await svcHost(["install", same, "--yes"], scene.world.home);
    expect(plain.code).toBe(0);
    expect(await installedVersion()).toBe("1.2.0");
  }, 120_000);

  it("takes a new key only with a rotation statement signed by the pinned key, and pins the new one", async () => {
    const first = await svcHost(["install", await packed("r1", "1.0.0", "author.key"), "--yes"], scene.world.home);
    expect(first.code).toBe(0);
    const authorKey = first.stdout.split("\n")[1].slice("Signed by key ".length, -": new to you.".length);

    const rotated = await svcHost(
      ["install", await packed("r2", "1.1.0", "next.key", {}, "author.key"), "--yes"],
      scene.world.home,
    );
    expect(rotated.stderr).toBe("");
    expect(rotated.code).toBe(0);
    expect(rotated.stdout.split("\n")[1]).toMatch(
      new RegExp(
        `^Signed by key [0-9a-f ]{39} \\([a-z ]+\\): a new key, which the installed version's key ${authorKey.replace(/[()]/g, "\\$&")} handed this extension over to\\.$`,
      ),
    );
    expect(await installedVersion()).toBe("1.1.0");
    const nextKey = rotated.stdout.split("\n")[1].slice("Signed by key ".length).split(": a new key")[0];

    // The new key is pinned: a later package signed with it (still carrying the statement) is the same author.
    const later = await svcHost(["install", await packed("r2", "1.2.0", "next.key"), "--yes"], scene.world.home);
    expect(later.stdout.split("\n")[1]).toBe(`Signed by key ${nextKey}: the same author as the installed version.`);

    // A statement signed by any other key than the pinned one is refused.
    const forged = await svcHost(
      ["install", await packed("r3", "2.0.0", "thief.key", {}, "stranger.key"), "--yes"],
      scene.world.home,
    );
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(
      new RegExp(
        `^svc-host install: cannot install fixture-2\\.0\\.0\\.svc: this is not from the author you installed: it is signed with key [^,]+, and its key-change statement \\(svc-rotation\\.json\\) is not signed by the installed version's key ${nextKey.replace(/[()]/g, "\\$&")}: the signature was made with key [0-9A-F]{16}, not [0-9A-F]{16}\\. To install it anyway, uninstall the installed one first \\(svc-host uninstall ${ID}\\)\\.\n$`,
      ),
    );
    expect(await installedVersion()).toBe("1.2.0");
  }, 180_000);

  it("disables a version its author revoked, with the reason, keeping its data; a stranger's revocation counts for nothing", async () => {
    expect(
      (await svcHost(["install", await packed("v1", "1.0.0", "author.key"), "--yes"], scene.world.home)).code,
    ).toBe(0);
    const dataFile = join(scene.world.home, "Data", ID, "kept.txt");
    await mkdir(join(scene.world.home, "Data", ID), { recursive: true });
    await writeFile(dataFile, "mine\n");
    const listed = async () =>
      (
        JSON.parse((await svcHost(["list", "--json"], scene.world.home)).stdout) as { id: string; error?: string }[]
      ).find((e) => e.id === ID);
    const revokeIn = async (dir: string, key: string) => {
      await keyFile(key);
      const made = await svckitProcess(
        [
          "revoke",
          "--up-to",
          "1.0.0",
          "--reason",
          "it sent tokens to the wrong host",
          "--key",
          join(scene.world.root, key),
        ],
        { cwd: join(scene.world.root, dir) },
      );
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      return join(scene.world.root, dir, "svc-revocation.json");
    };

    await writeFixture(join(scene.world.root, "x"), { svc: { id: ID, title: "Fixture" } });
    const forged = await svcHost(["revoke", await revokeIn("x", "stranger.key")], scene.world.home);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(
      /^svc-host revoke: this is not from the author you installed \(key [0-9a-f ]{39} \([a-z ]+\)\): the signature was made with key [0-9A-F]{16}, not [0-9A-F]{16}; nothing was changed\n$/,
    );
    expect((await listed())?.error).toBeUndefined();

    const genuine = await svcHost(["revoke", await revokeIn("v1", "author.key")], scene.world.home);
    expect(genuine.stderr).toBe("");
    expect(genuine.code).toBe(0);
    expect(genuine.stdout).toMatch(
      new RegExp(
        `^Revoked by its author \\(key [0-9a-f ]{39} \\([a-z ]+\\)\\): ${ID} versions up to 1\\.0\\.0, saying: "it sent tokens to the wrong host"\\. The installed 1\\.0\\.0 is not loaded from now on \\(svc applies it when it next loads it\\); its data is kept\\.\n$`,
      ),
    );
    const problem =
      'not loaded: its author revoked it (versions up to 1.0.0; this is 1.0.0), saying: "it sent tokens to the wrong host". Its data is kept; install a later version from the author';
    expect((await listed())?.error).toBe(problem);
    expect(await readFile(dataFile, "utf8")).toBe("mine\n");
    expect(await installedVersion()).toBe("1.0.0");

    const again = await svcHost(
      ["install", join(scene.world.root, "v1", "fixture-1.0.0.svc"), "--yes", "--downgrade"],
      scene.world.home,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `svc-host install: cannot install fixture-1.0.0.svc: ${problem.slice("not loaded: ".length)}\n`,
    );

    // The next version carries the statement (svckit pack packs it) and loads.
    const fixed = await svcHost(["install", await packed("v1", "1.0.1", "author.key"), "--yes"], scene.world.home);
    expect(fixed.code).toBe(0);
    expect((await listed())?.error).toBeUndefined();
    expect(await readFile(dataFile, "utf8")).toBe("mine\n");
  }, 180_000);

  it("a lost key: its author's statement, signed with it, disowns what it signed after a version and hands over to the new key; data is kept", async () => {
    const shown = async (key: string) => {
      const pub = parsePublicKey(await readFile(await keyFile(key), "utf8")).key;
      return `${keyFingerprint(pub)} (${keyWords(pub)})`;
    };
    const authorKey = await shown("author.key");
    const newKey = await shown("new.key");
    expect(
      (await svcHost(["install", await packed("l1", "1.0.0", "author.key"), "--yes"], scene.world.home)).code,
    ).toBe(0);
    // A thief with a copy of the author's key ships 1.1.0: the same key, so it installs.
    expect(
      (await svcHost(["install", await packed("thief", "1.1.0", "author.key"), "--yes"], scene.world.home)).code,
    ).toBe(0);
    const dataFile = join(scene.world.home, "Data", ID, "kept.txt");
    await mkdir(join(scene.world.home, "Data", ID), { recursive: true });
    await writeFile(dataFile, "mine\n");

    // The author: svckit rotate --lost-after 1.0.0 (signed with the lost key), then a package signed with the new one.
    const fixed = await packed("l2", "1.2.0", "new.key", {}, "author.key", {
      after: "1.0.0",
      reason: "my laptop was stolen",
    });
    const statement = join(scene.world.root, "l2", "svc-key-lost.json");
    // The same words signed by a stranger's key speak for nobody here.
    await packed("s", "1.2.0", "new.key", {}, "stranger.key", { after: "1.0.0", reason: "my laptop was stolen" });
    const forged = await svcHost(
      ["revoke", "--file", join(scene.world.root, "s", "svc-key-lost.json")],
      scene.world.home,
    );
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(
      new RegExp(
        `^svc-host revoke: this is not from the author you installed \\(key ${authorKey.replace(/[()]/g, "\\$&")}\\): the signature was made with key [0-9A-F]{16}, not [0-9A-F]{16}; nothing was changed\n$`,
      ),
    );

    const imported = await svcHost(["revoke", "--file", statement], scene.world.home);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe(
      `Key ${authorKey} of ${ID} is lost, says its author (signed with it): "my laptop was stolen". Versions signed with it after 1.0.0 are not loaded or installed, and updates are taken only from key ${newKey}. The installed 1.1.0 is not loaded from now on (svc applies it when it next loads it); its data is kept.\n`,
    );
    const listed = async () =>
      (
        JSON.parse((await svcHost(["list", "--json"], scene.world.home)).stdout) as { id: string; error?: string }[]
      ).find((e) => e.id === ID);
    const disowned = (version: string) =>
      `its author says the key that signed it, ${authorKey}, was lost after version 1.0.0 (this is ${version}), saying: "my laptop was stolen". Its data is kept; install the author's version signed with their new key ${newKey}`;
    expect((await listed())?.error).toBe(`not loaded: ${disowned("1.1.0")}`);
    expect(await readFile(dataFile, "utf8")).toBe("mine\n");

    // The thief's next version, signed with the lost key, and their handover to a key of their own: refused.
    const next = await svcHost(["install", await packed("thief", "1.3.0", "author.key"), "--yes"], scene.world.home);
    expect(next.code).toBe(1);
    expect(next.stderr).toBe(`svc-host install: cannot install fixture-1.3.0.svc: ${disowned("1.3.0")}\n`);
    const handover = await svcHost(
      ["install", await packed("thief2", "1.4.0", "thief.key", {}, "author.key"), "--yes"],
      scene.world.home,
    );
    expect(handover.code).toBe(1);
    expect(handover.stderr).toBe(
      `svc-host install: cannot install fixture-1.4.0.svc: this is not from the author you installed: it is signed with key ${await shown("thief.key")}, and the installed version's key ${authorKey} is lost, its author said, naming key ${newKey} as theirs from now on. To install it anyway, uninstall the installed one first (svc-host uninstall ${ID}).\n`,
    );
    expect(await installedVersion()).toBe("1.1.0");

    // The author's own package, signed with the new key, installs and loads; the data is still there.
    const ok = await svcHost(["install", fixed, "--yes"], scene.world.home);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout.split("\n")[1]).toBe(
      `Signed by key ${newKey}: a new key, which its author named when the installed version's key ${authorKey} was lost.`,
    );
    expect((await listed())?.error).toBeUndefined();
    expect(await readFile(dataFile, "utf8")).toBe("mine\n");
  }, 240_000);

  it("a lost-key statement carried in the new key's package hands over as an imported one does", async () => {
    const first = await svcHost(["install", await packed("c1", "1.0.0", "author.key"), "--yes"], scene.world.home);
    expect(first.code).toBe(0);
    const carried = await svcHost(
      [
        "install",
        await packed("c2", "1.1.0", "new.key", {}, "author.key", { after: "1.0.0", reason: "key leaked" }),
        "--yes",
      ],
      scene.world.home,
    );
    expect(carried.stderr).toBe("");
    expect(carried.code).toBe(0);
    expect(carried.stdout.split("\n")[1]).toMatch(
      /^Signed by key [0-9a-f ]{39} \([a-z ]+\): a new key, which its author named when the installed version's key [0-9a-f ]{39} \([a-z ]+\) was lost\.$/,
    );
    expect(await installedVersion()).toBe("1.1.0");
    // Kept as the author signed it, in the file of revocations (nothing expires).
    const kept = JSON.parse(await readFile(join(scene.world.home, "revocations.json"), "utf8")) as Record<
      string,
      { json: string }[]
    >;
    expect(kept[ID].map((s) => (JSON.parse(s.json) as { kind: string }).kind)).toEqual(["lost"]);
  }, 180_000);

  it("installs from an address: https only (loopback http only under the test switch), at most 50 MB", async () => {
    const file = await packed("u1", "1.0.0", "author.key");
    const big = Buffer.alloc(50 * 1024 * 1024 + 1);
    const server = createServer((req, res) => {
      if (req.url === "/fixture-1.0.0.svc") return void readFile(file).then((data) => res.end(data));
      if (req.url === "/limit.svc") return void res.end(big.subarray(0, 50 * 1024 * 1024));
      if (req.url === "/past.svc") {
        // No Content-Length: the limit is counted as the bytes arrive.
        res.writeHead(200, { "Transfer-Encoding": "chunked" });
        return void res.end(big);
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const testSwitch = { SVC_TEST_ALLOW_LOOPBACK_HTTP: "1" };
    try {
      const plain = await svcHost(["install", `${base}/fixture-1.0.0.svc`, "--yes"], scene.world.home);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toBe(
        `svc-host install: cannot install ${base}/fixture-1.0.0.svc: only https:// addresses are fetched; download it yourself and install the file\n`,
      );
      const missing = await svcHost(["install", `${base}/none.svc`, "--yes"], scene.world.home, testSwitch);
      expect(missing.stderr).toBe(`svc-host install: cannot install ${base}/none.svc: the server answered 404\n`);
      const past = await svcHost(["install", `${base}/past.svc`, "--yes"], scene.world.home, testSwitch);
      expect(past.stderr).toBe(
        `svc-host install: cannot install ${base}/past.svc: it is larger than 50 MB, the most a package may be\n`,
      );
      // Exactly 50 MB is fetched, then refused as what it is: not a zip.
      const limit = await svcHost(["install", `${base}/limit.svc`, "--yes"], scene.world.home, testSwitch);
      expect(limit.code).toBe(1);
      expect(limit.stderr).toMatch(/^svc-host install: cannot install limit\.svc: /);
      expect(limit.stderr).not.toContain("larger than");

      const got = await svcHost(["install", `${base}/fixture-1.0.0.svc`, "--yes"], scene.world.home, testSwitch);
      expect(got.stderr).toBe("");
      expect(got.code).toBe(0);
      expect(got.stdout.split("\n")[1]).toMatch(/^Signed by key .*: new to you\.$/);
      expect(await installedVersion()).toBe("1.0.0");
    } finally {
      server.close();
    }
  }, 180_000);
});
