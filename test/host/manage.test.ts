/**
 * `svc-host list | enable | disable | uninstall | set | run` as a person runs them: the real
 * CLI against the real running host (over /v1/extensions) and, with svc stopped, on the
 * support folder.
 */
import { spawn } from "node:child_process";
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { counterCode, HOST_MAIN, startHost, useHostWorld, webhookInfo, writeExtension, type World } from "./harness.js";

const scene = useHostWorld();

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `svc-host <args>` in the world, with `input` on stdin (a pipe, not a terminal). */
function cli(world: World, args: string[], input = ""): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOST_MAIN, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: world.userHome,
        SVC_HOME: world.home,
        SVC_BUNDLED_EXTENSIONS: world.bundled,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end(input);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const PREFS = [
  { name: "count", title: "Count", type: "number", default: 1 },
  { name: "loud", title: "Loud", type: "checkbox" },
  {
    name: "region",
    title: "Region",
    type: "dropdown",
    data: [
      { title: "EU", value: "eu" },
      { title: "US", value: "us" },
    ],
  },
];

async function twoExtensions(world: World): Promise<void> {
  await writeExtension(join(world.bundled, "one"), {
    svc: { id: "test.one", title: "One", interval: "1h", preferences: PREFS },
    code: counterCode(),
    version: "1.2.3",
  });
  await writeExtension(join(world.user, "two"), {
    svc: { id: "test.two", title: "Two", interval: "1h" },
    code: counterCode(),
    version: "0.1.0",
  });
  await writeExtension(join(world.user, "broken"), {
    svc: { id: "test.broken", title: "Broken", interval: "soon" },
    code: counterCode(),
  });
}

// Each CLI call is a Node process start: on a busy machine a test of many calls takes a while.
describe("svc-host management commands with svc running", { timeout: 90_000 }, () => {
  it("lists every extension with its version, source, state, tools and last error", async () => {
    await twoExtensions(scene.world);
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.two/main");
    await scene.host.waitFor((e) => e.type === "status" && e.extensionId === "test.two" && e.status === "idle");

    const listed = await cli(scene.world, ["list"]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID +VERSION +SOURCE +ENABLED +STATUS +TOOLS +LAST ERROR$/);
    expect(lines[1]).toMatch(/^test\.broken +- +user +yes +broken +- +package\.json: /);
    expect(lines[2]).toMatch(/^test\.one +1\.2\.3 +bundled +yes +idle +-$/);
    expect(lines[3]).toMatch(/^test\.two +0\.1\.0 +user +yes +idle +-$/);
    expect(lines[4]).toBe(`(svc is running (pid ${scene.host.child.pid}))`);

    const json = JSON.parse((await cli(scene.world, ["list", "--json"])).stdout);
    expect(json.find((e: any) => e.id === "test.one")).toEqual({
      id: "test.one",
      title: "One",
      version: "1.2.3",
      origin: "bundled",
      folder: join(scene.world.bundled, "one"),
      enabled: true,
      status: "idle",
      tools: [],
      options: [
        { name: "count", title: "Count", type: "number", required: false },
        { name: "loud", title: "Loud", type: "checkbox", required: false },
        { name: "region", title: "Region", type: "dropdown", required: false, choices: ["eu", "us"] },
      ],
    });
  });

  it("disables and enables at once, runs, and sets options checked like host.preferences.set", async () => {
    await twoExtensions(scene.world);
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main");

    let from = scene.host.events.length;
    expect(await cli(scene.world, ["disable", "test.one"])).toEqual({
      code: 0,
      stdout: "Turned off test.one\n",
      stderr: "",
    });
    await scene.host.waitFor((e) => e.type === "extension.unloaded" && e.id === "test.one", { from });
    expect(JSON.parse(await readFile(join(scene.world.home, "disabled.json"), "utf8"))).toEqual(["test.one"]);
    expect((await cli(scene.world, ["list"])).stdout).toMatch(/\ntest\.one +1\.2\.3 +bundled +no +disabled +-\n/);
    expect(await cli(scene.world, ["run", "test.one"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "svc-host run: test.one is turned off: svc-host enable test.one first\n",
    });
    // A turned-off extension does not run, so it is not said to run again.
    expect(await cli(scene.world, ["set", "test.one", "count", "2"])).toEqual({
      code: 0,
      stdout: "Set test.one count = 2; used once it is turned on\n",
      stderr: "",
    });

    from = scene.host.events.length;
    expect(await cli(scene.world, ["enable", "test.one"])).toEqual({
      code: 0,
      stdout: "Turned on test.one\n",
      stderr: "",
    });
    await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "test.one", { from });

    from = scene.host.events.length;
    expect(await cli(scene.world, ["run", "test.one"])).toEqual({
      code: 0,
      stdout: "Asked test.one to run\n",
      stderr: "",
    });
    await scene.host.waitFor((e) => e.type === "run.start" && e.id === "test.one" && e.trigger === "manual", { from });

    expect(await cli(scene.world, ["set", "test.one", "count", "3"])).toEqual({
      code: 0,
      stdout: "Set test.one count = 3; it runs again with the new value\n",
      stderr: "",
    });
    expect(await cli(scene.world, ["set", "test.one", "loud", "yes"])).toMatchObject({ code: 0 });
    expect(await cli(scene.world, ["set", "test.one", "region"], "us\n")).toMatchObject({
      code: 0,
      stdout: 'Set test.one region = "us"; it runs again with the new value\n',
    });
    expect(JSON.parse(await readFile(join(scene.world.home, "Preferences", "test.one.json"), "utf8"))).toEqual({
      count: 3,
      loud: true,
      region: "us",
    });
    // No value and no terminal: nothing typed is no answer, never a cleared option.
    for (const input of ["", "\n"]) {
      expect(await cli(scene.world, ["set", "test.one", "region"], input)).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "Region (region: eu, us): svc-host set: no value for region: stdin is not a terminal and gave none; give it as a word (svc-host set test.one region <value>), pipe it in, or clear it with --clear\n",
      });
    }
    expect(JSON.parse(await readFile(join(scene.world.home, "Preferences", "test.one.json"), "utf8"))).toMatchObject({
      region: "us",
    });
    await scene.host.waitFor((e) => e.type === "run.start" && e.id === "test.one" && e.trigger === "preferences");

    expect(await cli(scene.world, ["set", "test.one", "count", "many"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-host set: "count" should be a finite number\n',
    });
    expect(await cli(scene.world, ["set", "test.one", "region", "asia"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-host set: "region" should be one of its choices: eu, us\n',
    });
    expect(await cli(scene.world, ["set", "test.one", "colour", "red"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-host set: test.one has no option "colour"; its options are: count, loud, region\n',
    });
    expect(await cli(scene.world, ["set", "test.one", "count", "--clear"])).toMatchObject({
      code: 0,
      stdout: "Cleared test.one count; it runs again with the new value\n",
    });
    expect(JSON.parse(await readFile(join(scene.world.home, "Preferences", "test.one.json"), "utf8"))).toEqual({
      loud: true,
      region: "us",
    });

    expect(await cli(scene.world, ["enable", "test.nobody"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'svc-host enable: no extension "test.nobody"; svc-host list shows them all\n',
    });
    expect(await cli(scene.world, ["uninstall", "test.one", "--yes"])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "svc-host uninstall: test.one comes with svc and cannot be uninstalled; turn it off instead: svc-host disable test.one\n",
    });
  });

  it("uninstalls a user extension after --yes: folder, data, options, compiled code; a dev link goes, its folder stays", async () => {
    await twoExtensions(scene.world);
    const authorFolder = join(scene.world.root, "author", "three");
    await writeExtension(authorFolder, { svc: { id: "test.three", title: "Three" }, code: counterCode() });
    await symlink(authorFolder, join(scene.world.user, "test.three"));
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.two/main");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.three/main");
    await mkdir(join(scene.world.home, "Data", "test.two"), { recursive: true });
    await writeFile(join(scene.world.home, "Data", "test.two", "notes.txt"), "kept by the extension");
    await mkdir(join(scene.world.home, "Preferences"), { recursive: true });
    await writeFile(join(scene.world.home, "Preferences", "test.two.json"), "{}");
    await mkdir(join(scene.world.home, "Data", ".compiled-code"), { recursive: true });
    const compiled = join(scene.world.home, "Data", ".compiled-code", `test.two.${"a".repeat(64)}.qjsc`);
    const neighbour = join(scene.world.home, "Data", ".compiled-code", `test.two.x.${"a".repeat(64)}.qjsc`);
    await writeFile(compiled, "x");
    await writeFile(neighbour, "x");

    expect(await cli(scene.world, ["list"])).toMatchObject({
      stdout: expect.stringMatching(/\ntest\.three +1\.0\.0 +dev link +yes /),
    });
    expect(await cli(scene.world, ["uninstall", "test.two"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "svc-host uninstall: not uninstalled: stdin is not a terminal to ask on; run again with --yes to agree\n",
    });

    const from = scene.host.events.length;
    const removed = await cli(scene.world, ["uninstall", "test.two", "--yes"]);
    // No secret store in this world: everything else goes, and the one part that could not is said.
    // (The runtime's own compiled form of the bundle goes too.)
    expect(removed.stdout).toMatch(/^Uninstalled Two 0\.1\.0\n/);
    for (const path of [
      join(scene.world.user, "two"),
      join(scene.world.home, "Data", "test.two"),
      join(scene.world.home, "Preferences", "test.two.json"),
    ]) {
      expect(removed.stdout).toContain(`\n  removed ${path}\n`);
    }
    expect(removed.stdout).toMatch(/\n {2}removed .*\/Data\/\.compiled-code\/test\.two\.[0-9a-f]{64}\.qjsc\n/);
    // Every compiled form of test.two is gone (the runtime may have replaced ours with its own); a neighbour's stays.
    expect(
      (await readdir(join(scene.world.home, "Data", ".compiled-code"))).filter((name) => name.startsWith("test.two.")),
    ).toEqual([basename(neighbour)]);
    expect(removed.stderr).toMatch(
      /^svc-host uninstall: its secrets \(svc\.test\.two\) were not removed: no secret store available/,
    );
    expect(removed.code).toBe(1);
    await scene.host.waitFor((e) => e.type === "extension.unloaded" && e.id === "test.two", { from });
    for (const gone of [
      join(scene.world.user, "two"),
      join(scene.world.home, "Data", "test.two"),
      join(scene.world.home, "Preferences", "test.two.json"),
    ]) {
      await expect(lstat(gone)).rejects.toMatchObject({ code: "ENOENT" });
    }
    await lstat(neighbour);
    expect(
      scene.host.events.slice(from).some((e) => e.type === "blip" && e.id === "test.two/main" && e.change !== "remove"),
    ).toBe(false);

    expect((await cli(scene.world, ["uninstall", "test.three", "--yes"])).stdout).toMatch(
      /^Uninstalled Three 1\.0\.0\n  removed .*test\.three\n/,
    );
    await expect(lstat(join(scene.world.user, "test.three"))).rejects.toMatchObject({ code: "ENOENT" });
    expect((await lstat(join(authorFolder, "package.json"))).isFile()).toBe(true);
  });

  it("answers on /v1/extensions with the bearer token only, and says what is wrong", async () => {
    await twoExtensions(scene.world);
    scene.host = await startHost(scene.world);
    const { port, token } = await webhookInfo(scene.world);
    const call = (method: string, path: string, body?: unknown, auth = token) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${auth}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await call("GET", "/v1/extensions", undefined, "wrong")).status).toBe(401);
    const list = await call("GET", "/v1/extensions");
    expect(list.status).toBe(200);
    expect(((await list.json()) as { extensions: { id: string }[] }).extensions.map((e) => e.id)).toEqual([
      "test.broken",
      "test.one",
      "test.two",
    ]);
    expect(await (await call("POST", "/v1/extensions/test.nobody/disable")).json()).toEqual({
      error: 'no extension "test.nobody"; svc-host list shows them all',
    });
    expect((await call("POST", "/v1/extensions/test.nobody/disable")).status).toBe(404);
    expect((await call("GET", "/v1/extensions/test.one/disable")).status).toBe(405);
    expect((await call("PUT", "/v1/extensions/test.one/options/count", { nope: 1 })).status).toBe(400);
    const bad = await call("PUT", "/v1/extensions/test.one/options/count", { value: "x" });
    expect([bad.status, await bad.json()]).toEqual([400, { error: '"count" should be a finite number' }]);
    expect((await call("PUT", "/v1/extensions/test.one/options/count", { value: 5 })).status).toBe(200);
    const bundled = await call("DELETE", "/v1/extensions/test.one");
    expect(bundled.status).toBe(409);
  });
});

describe("svc-host management commands with svc stopped", { timeout: 90_000 }, () => {
  it("lists from disk, and a disable made meanwhile holds when svc starts", async () => {
    await twoExtensions(scene.world);
    const listed = await cli(scene.world, ["list"]);
    expect(listed.stdout).toMatch(/\ntest\.one +1\.2\.3 +bundled +yes +stopped +-\n/);
    expect(listed.stdout).toMatch(/\(svc is not running: statuses show from the next start\)\n$/);
    expect(await cli(scene.world, ["disable", "test.two"])).toEqual({
      code: 0,
      stdout: "Turned off test.two; takes effect when svc starts\n",
      stderr: "",
    });
    expect(await cli(scene.world, ["set", "test.one", "count", "9"])).toMatchObject({
      code: 0,
      stdout: "Set test.one count = 9; used from the next start\n",
    });
    expect(await cli(scene.world, ["run", "test.one"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "svc-host run: svc is not running: start it (svc-host, or npm start in the clone), then run again\n",
    });

    scene.host = await startHost(scene.world);
    const blip = await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main");
    expect(blip.blip.data.value).toBe("launch 1");
    expect(scene.host.events.some((e) => e.type === "extension.loaded" && e.id === "test.two")).toBe(false);
    expect((await cli(scene.world, ["list"])).stdout).toMatch(/\ntest\.two +0\.1\.0 +user +no +disabled +-\n/);
  });

  it("gives usage mistakes exit code 2 and every command its --help", async () => {
    for (const command of ["list", "enable", "disable", "uninstall", "set", "run"]) {
      const help = await cli(scene.world, [command, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: svc-host ${command}`));
    }
    expect(await cli(scene.world, ["enable"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-host enable: give exactly one extension id\nusage: svc-host enable <id>\n",
    });
    expect(await cli(scene.world, ["list", "--all"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc-host list: unknown option --all\nusage: svc-host list [--json]\n",
    });
  });
});
