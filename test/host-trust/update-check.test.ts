/**
 * `svc-host update` end to end: real keys and packages (svckit keygen, pack), the real svc-host
 * installing from a loopback address (plain http only under SVC_TEST_ALLOW_LOOPBACK_HTTP), then
 * checking it again as the author publishes: the same version is up to date, a newer one that
 * gains nothing is installed, one that gains anything or comes with a handed-over key is staged
 * and never applied by itself, another key's and another extension's are refused. The address is the person's: kept in the ledger under its MAC.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useHostWorld } from "../host/harness.js";
import { svcHost } from "./svc-host.js";
import { exists, signedPackages } from "./signed-packages.js";

const scene = useHostWorld();
const ID = "com.example.fixture";
const { packed, installedVersion } = signedPackages(scene, ID);

/** The file the loopback server answers with at /fixture.svc (404 until set). */
let served: string | undefined;
const server = createServer((req, res) => {
  if (req.url === "/fixture.svc" && served) return void readFile(served).then((data) => res.end(data));
  res.statusCode = 404;
  res.end();
});
let address = "";
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fixture.svc`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const testSwitch = { SVC_TEST_ALLOW_LOOPBACK_HTTP: "1" };
const update = (...words: string[]) => svcHost(["update", ...words], scene.world.home, testSwitch);

describe("svc-host update", () => {
  it("up to date, installed, staged, refused: each as the address changes", async () => {
    const none = await update();
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(
      "No extension was installed from an address, so there is nowhere to look for updates. Install one from its https address (svc-host install https://…/x.svc) and svc remembers it.\n",
    );

    served = await packed("v1", "1.0.0", "author.key");
    const first = await svcHost(["install", address, "--yes"], scene.world.home, testSwitch);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`\nFetched from ${address}; svc-host update checks there for updates.\n`);
    const ledger = JSON.parse(await readFile(join(scene.world.home, "ledger.json"), "utf8")) as {
      entries: Record<string, { approval: { address?: string } }>;
    };
    expect(ledger.entries[ID].approval.address).toBe(address);

    const same = await update();
    expect(same.stderr).toBe("");
    expect(same.stdout).toBe(`Fixture 1.0.0 is up to date: ${address} offers 1.0.0.\n`);
    expect(same.code).toBe(0);

    served = await packed("v2", "1.1.0", "author.key");
    const plain = await update(ID);
    expect(plain.stderr).toBe("");
    expect(plain.code).toBe(0);
    expect(plain.stdout.split("\n")[1]).toMatch(/^Signed by key .*: the same author as the installed version\.$/);
    expect(plain.stdout.endsWith("Updated Fixture from 1.0.0 to 1.1.0.\n")).toBe(true);
    expect(await installedVersion()).toBe("1.1.0");

    // An older version at the address is not a downgrade: nothing changes.
    served = join(scene.world.root, "v1", "fixture-1.0.0.svc");
    expect((await update()).stdout).toBe(`Fixture 1.1.0 is up to date: ${address} offers 1.0.0.\n`);
    expect(await installedVersion()).toBe("1.1.0");

    served = await packed("v3", "1.2.0", "author.key", {
      permissions: { network: ["api.example.com"], files: [], exec: [] },
    });
    const wider = await update();
    expect(wider.stderr).toBe("");
    expect(wider.code).toBe(0);
    expect(wider.stdout).toContain("Compared with 1.1.0, it can now also:\n  • connect to api.example.com\n");
    expect(
      wider.stdout.endsWith(
        `Staged, not installed: Fixture 1.2.0 can do more than the installed 1.1.0, which keeps running. To review and accept it: svc-host accept ${ID}, or Settings' "Review update…".\n`,
      ),
    ).toBe(true);
    expect(await installedVersion()).toBe("1.1.0");
    expect(await exists(join(scene.world.home, "Staged", `${ID}.svc`))).toBe(true);
    // Checking again stages it again; it is never applied by itself.
    expect((await update()).code).toBe(0);
    expect(await installedVersion()).toBe("1.1.0");

    // A handed-over key (svckit rotate) is the author's word, but nothing new is applied by itself from it.
    served = await packed("r", "1.3.0", "next.key", {}, "author.key");
    const rotated = await update();
    expect(rotated.stderr).toBe("");
    expect(
      rotated.stdout.endsWith(
        `Staged, not installed: Fixture 1.3.0 is not signed with the key you installed 1.1.0 with, so it waits for your review; 1.1.0 keeps running. To review and accept it: svc-host accept ${ID}, or Settings' "Review update…".\n`,
      ),
    ).toBe(true);
    expect(await installedVersion()).toBe("1.1.0");

    served = await packed("stranger", "2.0.0", "stranger.key");
    const stranger = await update();
    expect(stranger.code).toBe(1);
    expect(stranger.stdout).toBe("");
    expect(stranger.stderr).toMatch(
      /^svc-host update: cannot install fixture\.svc: this is not from the author you installed: it is signed with key [0-9a-f ]{39} \([a-z ]+\), the installed version with key [0-9a-f ]{39} \([a-z ]+\)\. To install it anyway, uninstall the installed one first \(svc-host uninstall com\.example\.fixture\)\.\n$/,
    );
    expect(await installedVersion()).toBe("1.1.0");

    // The staged update is the person's to accept; it keeps the address.
    const accepted = await svcHost(["accept", ID, "--yes"], scene.world.home);
    expect(accepted.code).toBe(0);
    expect(await installedVersion()).toBe("1.3.0");
    served = join(scene.world.root, "r", "fixture-1.3.0.svc");
    expect((await update()).stdout).toBe(`Fixture 1.3.0 is up to date: ${address} offers 1.3.0.\n`);

    // Another extension at the address is refused before anything else: never a first install without asking.
    served = await signedPackages(scene, "com.example.other").packed("o", "9.0.0", "next.key");
    const other = await update(ID);
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(
      `svc-host update: cannot install fixture.svc: it is "com.example.other", not ${ID}, which this address was installed for; nothing was changed\n`,
    );
    expect(await exists(join(scene.world.user, "com.example.other"))).toBe(false);
  }, 180_000);

  it("the address cannot be changed outside svc: an edited ledger entry does not verify, and nothing is fetched", async () => {
    served = await packed("v1", "1.0.0", "author.key");
    expect((await svcHost(["install", address, "--yes"], scene.world.home, testSwitch)).code).toBe(0);
    const file = join(scene.world.home, "ledger.json");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace(address, "http://127.0.0.1:1/elsewhere.svc"));
    const edited = await update(ID);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toBe(
      `svc-host update: ${ID} was not installed from an address, so there is nowhere to look for its updates: install it once from the author's https address (svc-host install https://…/x.svc) and svc remembers it\n`,
    );
    expect((await svcHost(["update", "--all"], scene.world.home)).stderr).toBe(
      "svc-host update: give at most one extension id\nusage: svc-host update [<id>]\n",
    );
  }, 120_000);
});
