/**
 * `/v1/tools` through the real svc-host and svc-runtime: the list, runs with every status, the
 * host's checks of values and files, drops, and the guards every `/v1` route has.
 */
import { mkdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHostWorld } from "../host/harness.js";
import { TOOLS_ID } from "./fixture.js";
import { callHost, startToolHost } from "./harness.js";

const scene = useHostWorld({ perFile: true });
const run = (tool: string, body?: unknown, headers?: Record<string, string>) =>
  callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/${tool}`, body, headers);
const echoed = (answer: { json: any }) =>
  JSON.parse(answer.json.blocks[0].text) as { action: string; values: Record<string, unknown> };

describe("/v1/tools", () => {
  it("starts the host with the fixtures (runtime tool timeouts shortened)", { timeout: 60_000 }, async () => {
    scene.host = await startToolHost(
      scene.world,
      { SVC_RUNTIME_TOOL_ABORT_MS: "300", SVC_RUNTIME_TOOL_GIVE_UP_MS: "800" },
      { unloadable: true },
    );
  });

  it("lists every tool with its spec; the loaded code's specs replace dist/tools.json's, which stand until code loads", async () => {
    const { status, json } = await callHost(scene.world, "GET", "/v1/tools");
    expect(status).toBe(200);
    const echo = json.tools.find((t: any) => t.id === `${TOOLS_ID}/echo`);
    expect(echo).toMatchObject({
      id: `${TOOLS_ID}/echo`,
      name: "echo",
      extensionId: TOOLS_ID,
      extensionTitle: "Tool fixture",
      title: "Echo",
      summary: "Says back what it got",
      category: "developer",
      live: false,
      remembersInputs: true,
      clipboardKinds: ["json"],
      agents: false,
      actions: [
        { id: "go", title: "Go", role: "primary" },
        { id: "again", title: "Again", role: "default" },
      ],
    });
    expect(echo.fields.map((f: any) => f.type)).toEqual([
      "text",
      "number",
      "toggle",
      "choice",
      "code",
      "pairs",
      "file",
    ]);
    expect(echo.fields[6]).toMatchObject({ types: ["public.item"], multiple: false });
    // The extension whose code cannot load still lists what its dist/tools.json declares.
    const fromFile = json.tools.find((t: any) => t.id === "com.example.unloadable/echo");
    expect(fromFile.title).toBe("Echo (from file)");
    expect(json.tools.filter((t: any) => t.extensionId === TOOLS_ID).map((t: any) => t.name)).toEqual([
      "echo",
      "plain",
      "fail",
      "read",
      "picture",
      "hash",
    ]);
  });

  it("runs the first action with values normalized: defaults for missing fields, numbers clamped", async () => {
    const answer = await run("echo", {
      values: { input: "yo", count: 99, pick: "two", headers: [{ name: "A", value: "b" }] },
    });
    expect(answer.status).toBe(200);
    expect(echoed(answer)).toEqual({
      action: "go",
      values: {
        input: "yo",
        count: 10,
        flag: false,
        pick: "two",
        source: "",
        headers: [{ name: "A", value: "b" }],
        file: [],
      },
    });
    const empty = await run("echo");
    expect(empty.status).toBe(200);
    expect(echoed(empty)).toEqual({
      action: "go",
      values: { input: "hi", count: 3, flag: false, pick: "one", source: "", headers: [], file: [] },
    });
    expect(echoed(await run("echo", { action: "again", values: { count: -5, flag: true } })).values).toMatchObject({
      count: 1,
      flag: true,
    });
  });

  it("runs a tool without actions as `run`", async () => {
    const answer = await run("plain", {});
    expect(answer).toEqual({
      status: 200,
      json: { blocks: [{ type: "status", text: "plain run", tone: "positive" }] },
    });
    expect((await run("plain", { action: "go" })).json).toEqual({ error: '"action" should be one of "run"; got "go"' });
  });

  it("answers 404 for an unknown extension or tool, naming what exists", async () => {
    expect(await callHost(scene.world, "POST", "/v1/tools/com.example.nope/echo", {})).toEqual({
      status: 404,
      json: { error: 'no extension "com.example.nope": GET /v1/tools lists every tool' },
    });
    expect(await run("nope", {})).toEqual({
      status: 404,
      json: {
        error: `${TOOLS_ID} has no tool "nope": its tools are "echo", "plain", "fail", "read", "picture", "hash"`,
      },
    });
  });

  it("answers 400 naming the field for invalid values, actions and bodies", async () => {
    const cases: Array<[unknown, string]> = [
      [
        { values: { inptu: "x" } },
        '"values.inptu" is not a field of Echo: its fields are "input", "count", "flag", "pick", "source", "headers", "file"',
      ],
      [{ values: { count: "3" } }, '"values.count" should be a number'],
      [{ values: { flag: "yes" } }, '"values.flag" should be true or false'],
      [{ values: { pick: "three" } }, '"values.pick" should be one of "one", "two"'],
      [{ values: { input: 5 } }, '"values.input" should be a string'],
      [
        { values: { headers: [{ name: "A" }] } },
        '"values.headers" should be a list of {"name": string, "value": string}',
      ],
      [{ values: { file: ["relative.txt"] } }, '"values.file" should be a list of absolute paths'],
      [{ values: [1] }, '"values" should be an object keyed by field id'],
      [{ action: "nope" }, '"action" should be one of "go", "again"; got "nope"'],
      [{ action: 3 }, '"action" should be one of "go", "again"; got 3'],
      [{ value: {} }, '"value" is not part of the request: send {action?, values}'],
      [[], "the body should be an object: {action?, values}"],
    ];
    for (const [body, error] of cases) expect(await run("echo", body)).toEqual({ status: 400, json: { error } });
  });

  it("answers 502 with the error's message (never its stack) when the tool throws or returns what the app can't show", async () => {
    expect(await run("fail", { action: "throw" })).toEqual({ status: 502, json: { error: "bad input: try again" } });
    expect(await run("fail", { action: "invalid" })).toEqual({
      status: 502,
      json: { error: "Fail returned something the app can't show." },
    });
  });

  it("answers 502 for a tool whose extension code cannot load", async () => {
    const answer = await callHost(scene.world, "POST", "/v1/tools/com.example.unloadable/plain", {});
    expect(answer.status).toBe(502);
    expect(answer.json.error).toContain("this bundle cannot load");
  });

  it("answers 504 when the tool does not finish in time", async () => {
    const answer = await run("fail", { action: "hang" });
    expect(answer.status).toBe(504);
    expect(answer.json.error).toMatch(/^Fail did not finish in time: /);
  });

  it("keeps every /v1 guard: no token 401, an Origin 403, OPTIONS 405, JSON only, GET only on the list", async () => {
    const { port } = await (await import("../host/harness.js")).webhookInfo(scene.world);
    const url = `http://127.0.0.1:${port}/v1/tools/${TOOLS_ID}/echo`;
    expect((await fetch(url, { method: "POST" })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/v1/tools`)).status).toBe(401);
    expect((await run("echo", {}, { origin: "https://evil.example" })).status).toBe(403);
    expect((await callHost(scene.world, "OPTIONS", `/v1/tools/${TOOLS_ID}/echo`)).status).toBe(405);
    expect((await run("echo", "{}", { "content-type": "text/plain" })).status).toBe(415);
    expect(await run("echo", "{nope")).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^invalid JSON: /) },
    });
    expect((await callHost(scene.world, "DELETE", "/v1/tools")).status).toBe(405);
    expect((await callHost(scene.world, "GET", `/v1/tools/${TOOLS_ID}/echo`)).status).toBe(405);
  });
});

describe("files given over HTTP", () => {
  it("a given file is a read grant for that run: the tool reads it and may hand it back; other paths are dropped", async () => {
    const dir = join(scene.world.root, "person");
    await mkdir(dir, { recursive: true });
    const file = join(dir, "notes.txt");
    await writeFile(file, "my notes");
    await symlink(file, join(dir, "link.txt"));
    const answer = await run("read", { values: { file: [join(dir, "link.txt")] } });
    expect(answer.status).toBe(200);
    const data = await realpath(join(scene.world.home, "Data", TOOLS_ID));
    // The runtime got the real path, never the symlink the caller named.
    expect(answer.json.blocks).toEqual([
      { type: "text", value: "my notes" },
      { type: "image", path: await realpath(file) },
      { type: "files", paths: [join(data, "copy.txt"), await realpath(file)] },
    ]);
    // Not given in this run: the image and the files block are left out (the runtime and the host drop them).
    expect((await run("read", { action: "steal" })).json.blocks).toEqual([
      { type: "status", text: "tried", tone: "neutral" },
    ]);
  });

  it("refuses a missing file, a folder, and reading a file that was not given", async () => {
    expect(await run("read", { values: { file: ["/nowhere/at/all.txt"] } })).toEqual({
      status: 400,
      json: { error: '"values.file": /nowhere/at/all.txt does not exist' },
    });
    expect(await run("read", { values: { file: [scene.world.root] } })).toEqual({
      status: 400,
      json: {
        error: `"values.file": ${scene.world.root} is not a file (folders and devices cannot be given to a tool)`,
      },
    });
    const notGiven = await run("read", { values: {} });
    expect(notGiven.status).toBe(502);
  });
});

describe("drops over HTTP", () => {
  it("hands the files to drop(); outputs outside the data folder and not given are dropped", async () => {
    const dir = join(scene.world.root, "drop");
    await mkdir(dir, { recursive: true });
    const a = join(dir, "a.bin");
    const b = join(dir, "b.bin");
    await writeFile(a, "a");
    await writeFile(b, "b");
    const answer = await callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/hash/drop`, {
      action: "list",
      files: [a, b],
    });
    expect(answer.status).toBe(200);
    const data = await realpath(join(scene.world.home, "Data", TOOLS_ID));
    expect(answer.json).toEqual({
      message: "list 2",
      outputs: [join(data, "list.txt")],
      copiedText: `${await realpath(a)},${await realpath(b)}`,
    });
    expect(await readFile(join(data, "list.txt"), "utf8")).toBe(`${await realpath(a)}\n${await realpath(b)}`);
  });

  it("answers 400 for too few files, a wrong action, a missing file; 404 for a tool without drop actions", async () => {
    const drop = (tool: string, body: unknown) =>
      callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/${tool}/drop`, body);
    const file = join(scene.world.root, "drop", "a.bin");
    expect(await drop("hash", { action: "list", files: [file] })).toEqual({
      status: 400,
      json: { error: '"files": List needs at least 2 files; got 1' },
    });
    expect(await drop("hash", { action: "nope", files: [file, file] })).toEqual({
      status: 400,
      json: { error: '"action" should be one of "list"; got "nope"' },
    });
    expect(await drop("hash", { action: "list", files: [file, "/nowhere/x"] })).toEqual({
      status: 400,
      json: { error: '"files": /nowhere/x does not exist' },
    });
    expect(await drop("hash", { action: "list", files: "x" })).toEqual({
      status: 400,
      json: { error: '"files" should be a list of absolute paths' },
    });
    expect(await drop("echo", { action: "list", files: [file] })).toEqual({
      status: 404,
      json: { error: "Echo takes no dropped files: it has no drop actions" },
    });
    expect(await drop("hash", "")).toMatchObject({ status: 400, json: { error: "invalid JSON: the body is empty" } });
  });
});
