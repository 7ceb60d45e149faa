/** Tools through the real runtime: discovery, values, timeouts, result checks, path fence, drops. */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ErrorCodes,
  ExtensionRun,
  ExtensionStatusChanged,
  ExtensionTools,
  Log,
  ToolCancel,
  ToolDrop,
  ToolRun,
} from "@svc/runtime";
import { freshId, loadFixture, startRuntime, startSharedRuntime, type Started } from "./harness/setup.js";
import { TOOL_SPEC_DEFAULTS } from "../tool-spec-defaults.js";

let shared: Started;
let ID = "";
beforeAll(async () => {
  shared = await startSharedRuntime();
});
/** Each test gets its own extension id on the shared runtime. */
function next(): Started {
  ID = freshId("com.example.tools");
  return shared;
}
const runTool = (started: Started, tool: string, action: string, values: Record<string, unknown> = {}) =>
  started.runtime.request(ToolRun, { id: ID, tool, action, values });
const logs = (started: Started, level: string) =>
  started.runtime
    .notifications(Log, ID)
    .filter((l) => l.level === level)
    .map((l) => l.message);

describe("extension.tools", () => {
  it("reports every valid tool in canonical form and logs the invalid one", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const [{ tools }] = started.runtime.notifications(ExtensionTools, ID);
    expect(tools.map((t: any) => t.id)).toEqual(["echo", "wait", "fail", "paths", "badResult"]);
    expect(tools[1]).toEqual({ id: "wait", title: "Wait", icon: "clock", ...TOOL_SPEC_DEFAULTS });
    expect(logs(started, "error")).toEqual([expect.stringMatching(/^tool "invalid" left out: "title" .*32/)]);
  });

  it("a tools-only extension's run answers {} and does nothing", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    expect(await started.runtime.call(ExtensionRun, { id: ID, trigger: { type: "manual" } })).toEqual({});
  });
});

describe("tool.run", () => {
  it("normalizes values against the spec before run()", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const response = await runTool(started, "echo", "go", {
      input: 5,
      count: 99,
      flag: "yes",
      pick: "three",
      file: ["/a", "/b"],
      junk: 1,
    });
    const [block] = response.result.blocks;
    expect(block.type).toBe("code");
    expect(JSON.parse(block.text)).toEqual({
      action: "go",
      values: { input: "", count: 10, flag: false, pick: "one", file: ["/a"] },
    });
  });

  it("answers UnknownTool for a missing or invalid tool", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const response = await runTool(started, "invalid", "go");
    expect(response.error).toEqual({
      code: ErrorCodes.UnknownTool,
      message: `${ID} has no tool "invalid": its tools are "echo", "wait", "fail", "paths", "badResult"`,
    });
  });

  it("aborts ctx.signal at the abort limit and answers Timeout then", async () => {
    ID = freshId("com.example.tools");
    const started = await startRuntime({ SVC_RUNTIME_TOOL_ABORT_MS: "300", SVC_RUNTIME_TOOL_GIVE_UP_MS: "5000" });
    await loadFixture(started, "tools", ID);
    const t0 = Date.now();
    const aborted = await runTool(started, "wait", "go");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(aborted.error).toEqual({
      code: ErrorCodes.Timeout,
      message: `${ID}: tool "wait" did not finish within 300 ms`,
    });
    await started.runtime.waitFor(() => logs(started, "info").includes("signal aborted: true"));
  });

  it("tool.cancel aborts the named run's ctx.signal at once; an unknown or finished run is not cancelled", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const pending = started.runtime.request(ToolRun, { id: ID, tool: "wait", action: "go", values: {}, runId: "r-1" });
    // Once the guest waits on its signal (status running), cancel: the run answers cancelled at once,
    // and the guest sees its signal aborted.
    await started.runtime.waitFor(() =>
      started.runtime.notifications(ExtensionStatusChanged, ID).some((s) => s.status === "running"),
    );
    let cancelled = await started.runtime.call(ToolCancel, { id: ID, runId: "r-1" });
    expect(cancelled).toEqual({ cancelled: true });
    expect((await pending).error).toEqual({ code: ErrorCodes.ToolFailed, message: 'tool "wait" was cancelled' });
    await started.runtime.waitFor(() => logs(started, "info").includes("signal aborted: true"));
    cancelled = await started.runtime.call(ToolCancel, { id: ID, runId: "r-1" });
    expect(cancelled).toEqual({ cancelled: false });
    expect(await started.runtime.call(ToolCancel, { id: ID, runId: "never" })).toEqual({ cancelled: false });
    const bad = await started.runtime.request(ToolCancel, { id: ID, runId: "" });
    expect(bad.error?.code).toBe(ErrorCodes.InvalidParams);
  });

  it("gives up with Timeout at the give-up limit even if the sandbox never answers", async () => {
    ID = freshId("com.example.tools");
    const started = await startRuntime({ SVC_RUNTIME_TOOL_ABORT_MS: "5000", SVC_RUNTIME_TOOL_GIVE_UP_MS: "300" });
    await loadFixture(started, "tools", ID);
    const gaveUp = await runTool(started, "wait", "ignore");
    expect(gaveUp.error).toEqual({
      code: ErrorCodes.Timeout,
      message: `${ID}: tool "wait" did not finish within 300 ms`,
    });
  });

  it("a throw fails the run with the error's message, never its stack; the log has both", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const response = await runTool(started, "fail", "throw");
    expect(response.error).toEqual({ code: ErrorCodes.ToolFailed, message: "bad input: try again" });
    // For the author: what threw, and where (in the bundle here: this fixture has no source map).
    expect(logs(started, "error").at(-1)).toMatch(
      /^tool "fail" threw: bad input: try again\n {4}at .*dist\/index\.js:\d+:\d+/,
    );
  });

  it("a result the app can't show fails with the title's message; details go to the log", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const response = await runTool(started, "fail", "invalid");
    expect(response.error).toEqual({
      code: ErrorCodes.ToolFailed,
      message: "Fail returned something the app can't show.",
    });
    expect(logs(started, "error").at(-1)).toMatch(/^tool "fail": block 0/);
  });

  it("a result of exactly 1 MB passes; one byte more fails", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const atLimit = await runTool(started, "fail", "mb");
    expect(Buffer.byteLength(JSON.stringify(atLimit.result.blocks))).toBe(1_048_576);
    const over = await runTool(started, "fail", "mb+1");
    expect(over.error).toEqual({
      code: ErrorCodes.ToolFailed,
      message: "Fail returned more than 1 MB, too much to show.",
    });
  });

  it("cuts to the limits: 24 blocks, 64 rows, text past 100,000 characters with an ellipsis", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    expect((await runTool(started, "fail", "many")).result.blocks).toHaveLength(24);
    expect((await runTool(started, "fail", "rows")).result.blocks[0].rows).toHaveLength(64);
    expect((await runTool(started, "fail", "atLimit")).result.blocks[0].value).toBe("z".repeat(100_000));
    expect((await runTool(started, "fail", "limit")).result.blocks[0].value).toBe(`${"z".repeat(100_000)}…`);
  });

  it("drops and logs every returned path outside Data/<id>/ that the user did not give", async () => {
    const started = next();
    const dataDir = join(started.root.data, ID);
    mkdirSync(dataDir, { recursive: true });
    const given = join(started.root.root, "given.txt");
    writeFileSync(given, "g");
    symlinkSync("/etc/hostname", join(dataDir, "escape"));
    await loadFixture(started, "tools", ID);
    const response = await runTool(started, "paths", "go", { given: [given] });
    const inside = realpathSync(join(dataDir, "out", "result.txt"));
    expect(response.result.blocks).toEqual([
      { type: "files", paths: [inside, realpathSync(given)] },
      { type: "image", path: inside },
    ]);
    const dropped = logs(started, "warn").filter((m) => m.startsWith("Paths: dropped a returned file: "));
    expect(dropped).toHaveLength(5);
    expect(dropped[0]).toBe(
      "Paths: dropped a returned file: /etc/hostname resolves to /etc/hostname, outside the extension's data folder and not a file the user gave: write it under ctx.dataDir",
    );
  });
});

describe("tool.drop", () => {
  it("hands the files to drop() and fences its outputs", async () => {
    const started = next();
    const given = join(started.root.root, "dropped.png");
    writeFileSync(given, "png");
    await loadFixture(started, "tools", ID);
    const result = await started.runtime.call(ToolDrop, { id: ID, tool: "paths", action: "shrink", files: [given] });
    expect(result).toEqual({
      message: "got 1",
      outputs: [realpathSync(join(started.root.data, ID, "out", "dropped.txt")), realpathSync(given)],
      copiedText: "copied",
    });
    expect(logs(started, "warn")).toHaveLength(1);
  });

  it("refuses an unknown drop action and too few files; a bad result fails with the title's message", async () => {
    const started = next();
    await loadFixture(started, "tools", ID);
    const unknown = await started.runtime.request(ToolDrop, { id: ID, tool: "paths", action: "nope", files: ["/a"] });
    expect(unknown.error).toEqual({
      code: ErrorCodes.UnknownTool,
      message: 'tool "paths" has no drop action "nope" (its drop actions: "shrink")',
    });
    const few = await started.runtime.request(ToolDrop, { id: ID, tool: "badResult", action: "d", files: ["/a"] });
    expect(few.error).toEqual({
      code: -32602,
      message: 'drop action "d" of tool "badResult" needs at least 2 files; got 1',
    });
    const bad = await started.runtime.request(ToolDrop, {
      id: ID,
      tool: "badResult",
      action: "d",
      files: ["/a", "/b"],
    });
    expect(bad.error).toEqual({
      code: ErrorCodes.ToolFailed,
      message: "Bad drop returned something the app can't show.",
    });
  });
});
