/**
 * `svc-host install` end to end: a `.svc` built by the real `svckit pack`, installed by the real
 * `svc-host install` into the SVC_HOME of a real running host, which picks the new folder up
 * (hot reload) and runs it.
 */
import { access, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHost, useHostWorld } from "../host/harness.js";
import { svcHost } from "./svc-host.js";
import { svckitProcess } from "../cli/harness.js";
import { writeFixture } from "../cli/fixtures.js";

const scene = useHostWorld();

/** Packs a small extension with svckit; resolves with the path of its `.svc`. */
async function packedExtension(): Promise<string> {
  const dir = join(scene.world.root, "project");
  await writeFixture(dir, { svc: { id: "com.example.fixture", title: "Fixture", description: "Counts to three." } });
  const packed = await svckitProcess(["pack"], { cwd: dir });
  expect(packed).toMatchObject({ code: 0 });
  return join(dir, "fixture-1.2.3.svc");
}

describe("svc-host install", () => {
  it("installs a package svckit packed, with --yes, and the running host loads it", async () => {
    const file = await packedExtension();
    scene.host = await startHost(scene.world);
    const from = scene.host.events.length;

    // No terminal to ask on and no --yes: the summary is shown, nothing is installed.
    const refused = await svcHost(["install", file], scene.world.home);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("Fixture 1.2.3 (com.example.fixture)");
    expect(refused.stderr).toBe(
      "svc-host install: not installed: stdin is not a terminal to ask on; run again with --yes to agree\n",
    );
    expect(await readdir(scene.world.user)).toEqual([]);

    const installed = await svcHost(["install", file, "--yes"], scene.world.home);
    expect(installed).toMatchObject({ code: 0, stderr: "" });
    expect(installed.stdout).toContain("Fixture 1.2.3 (com.example.fixture)\nCounts to three.\n");
    expect(installed.stdout).toContain(`Installed Fixture 1.2.3 in ${join(scene.world.user, "com.example.fixture")}\n`);
    await access(join(scene.world.user, "com.example.fixture", "dist", "index.js"));

    expect(
      await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "com.example.fixture", { from }),
    ).toMatchObject({ reason: "discovered" });
    const blip = await scene.host.waitFor((e) => e.type === "blip" && e.id === "com.example.fixture/count", { from });
    expect(blip.blip).toMatchObject({ title: "Count", layout: "stat" });
  });

  it("says how to use it when the file is missing, and lists it in --help", async () => {
    expect(await svcHost(["install"], scene.world.home)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "svc-host install: give exactly one .svc file\nusage: svc-host install <file.svc | https://…/x.svc | catalog name> [--yes] [--downgrade]\n",
    });
    const help = await svcHost(["--help"], scene.world.home);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("svc-host install <file.svc | https://…/x.svc | catalog name> [--yes] [--downgrade]");
    expect(help.stdout).toContain("svc-host revoke [--file] <file>");
    expect(help.stdout).toContain("svc-host update [<id>]");
    for (const name of ["SVC_HOME", "SVC_PORT", "SVC_OPEN_URLS", "SVC_HOST_CONTROL"])
      expect(help.stdout).toContain(name);
    expect(await svcHost(["frobnicate"], scene.world.home)).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-host: unknown command frobnicate; run svc-host --help\n",
    });
  });

  it("prints a file name, an address or a word it was given inert: no escape sequence reaches the terminal", async () => {
    // A package's name can retitle the window (OSC) or clear the screen (CSI) when printed raw.
    const file = join(scene.world.root, "x\u001b]0;pwned\u0007.svc");
    await writeFile(file, "not a zip");
    const fromFile = await svcHost(["install", file, "--yes"], scene.world.home);
    expect(fromFile.code).toBe(1);
    const shownFile = "svc-host install: cannot install x\\u{1b}]0;pwned\\u{7}.svc: ";
    expect(fromFile.stderr.slice(0, shownFile.length)).toBe(shownFile);
    // Port 1 is refused before any connection: nothing leaves the machine.
    const fromAddress = await svcHost(["install", "https://127.0.0.1:1/\u001b[2Jx.svc", "--yes"], scene.world.home);
    expect(fromAddress.code).toBe(1);
    const shownAddress = "svc-host install: cannot install https://127.0.0.1:1/\\u{1b}[2Jx.svc: ";
    expect(fromAddress.stderr.slice(0, shownAddress.length)).toBe(shownAddress);
    const unknown = await svcHost(["\u001b[2Jwipe"], scene.world.home);
    expect(unknown).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-host: unknown command \\u{1b}[2Jwipe; run svc-host --help\n",
    });
    for (const outcome of [fromFile, fromAddress, unknown]) {
      expect(outcome.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      expect(outcome.stderr.endsWith("\n")).toBe(true);
    }
  });
});
