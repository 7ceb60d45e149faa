/** The blip side through the real runtime: runs, payload processing, seq, events, actions, logs. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  BlipEnd,
  BlipRemove,
  BlipUpdate,
  ErrorCodes,
  ExtensionAction,
  ExtensionEvent,
  ExtensionRun,
  ExtensionStatusChanged,
  ExtensionTools,
  ExtensionUnload,
  Log,
  WebhookRespond,
} from "@svc/runtime";
import type { RuntimeProcess } from "./harness/client.js";
import { freshId, loadFixture, startRuntime, startSharedRuntime, type Started } from "./harness/setup.js";

let shared: Started;
let ID = "";
beforeAll(async () => {
  shared = await startSharedRuntime();
});
/** Each test gets its own extension id on the shared runtime. */
function next(): Started {
  ID = freshId("com.example.blips");
  return shared;
}

const run = (trigger: "launch" | "interval" | "manual" | "preferences" = "manual") => ({
  id: ID,
  trigger: { type: trigger },
});
const logs = (runtime: RuntimeProcess, level?: string) =>
  runtime
    .notifications(Log, ID)
    .filter((l) => level === undefined || l.level === level)
    .map((l) => l.message);
/** This extension's messages and the answer to `answerId`, in order, as method names. */
const order = (runtime: RuntimeProcess, answerId: unknown) =>
  runtime.received
    .filter((m) => m.params?.extensionId === ID || (m.method === undefined && m.id === answerId))
    .map((m) => m.method ?? "answer");

describe("extension.load and extension.run", () => {
  it("loads (tools, then status loaded with heap and cpu), runs update() and stamps the payload", async () => {
    const started = next();
    const { runtime } = started;
    await loadFixture(started, "blips", ID);
    expect(runtime.notifications(ExtensionTools, ID)).toEqual([{ extensionId: ID, tools: [] }]);
    const [loaded] = runtime.notifications(ExtensionStatusChanged, ID);
    expect(loaded).toMatchObject({ extensionId: ID, status: "loaded" });
    expect(loaded.heapUsed).toBeGreaterThan(0);
    expect(loaded.cpuMs).toBeGreaterThanOrEqual(0);

    const before = Date.now();
    const response = await runtime.request(ExtensionRun, run());
    expect(response.result).toEqual({ nextRunAfter: 60 });
    const updates = runtime.notifications(BlipUpdate, ID);
    expect(updates).toHaveLength(1);
    const { payload } = updates[0];
    expect(updates[0].extensionId).toBe(ID);
    expect(payload).toMatchObject({ id: `${ID}/a`, seq: 1, v: 1, title: "A", layout: "stat" });
    expect(Date.parse(payload.emittedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(payload).not.toHaveProperty("key");
    // The update and the idle status come before the answer.
    const seen = order(runtime, response.id);
    expect(seen.indexOf("blip.update")).toBeLessThan(seen.indexOf("answer"));
    expect(runtime.notifications(ExtensionStatusChanged, ID).map((s) => s.status)).toEqual([
      "loaded",
      "running",
      "idle",
    ]);
    // The figures update() left, brought back with its answer from the sandbox thread.
    const idle = runtime.notifications(ExtensionStatusChanged, ID)[2];
    expect(idle.heapUsed).toBeGreaterThan(0);
    expect(idle.cpuMs).toBeGreaterThanOrEqual(loaded.cpuMs!);
  });

  it("passes the trigger and the preferences", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "trigger" });
    await started.runtime.call(ExtensionRun, run("preferences"));
    expect(started.runtime.notifications(BlipUpdate, ID)[0].payload.title).toBe("preferences");
    await loadFixture(started, "blips", ID, { mode: "prefs", city: "Bergen" });
    await started.runtime.call(ExtensionRun, run());
    expect(started.runtime.notifications(BlipUpdate, ID)[1].payload.title).toBe("city=Bergen");
  });

  it("gives a burst of emits of one blip increasing seqs, in order", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "burst" });
    await started.runtime.call(ExtensionRun, run());
    const updates = started.runtime.notifications(BlipUpdate, ID).map((u) => [u.payload.seq, u.payload.title]);
    expect(updates).toEqual([
      [1, "A1"],
      [2, "A2"],
      [3, "A3"],
      [4, "A4"],
      [5, "A5"],
    ]);
  });

  it("answers ExtensionFailed with the error's message when update() throws", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "throw" });
    const response = await started.runtime.request(ExtensionRun, run());
    expect(response.error).toEqual({ code: ErrorCodes.ExtensionFailed, message: "update broke" });
    // A call that failed brings back no figures: the idle status has them from the sandbox thread.
    const idle = started.runtime.notifications(ExtensionStatusChanged, ID).at(-1);
    expect(idle).toMatchObject({ status: "idle", heapUsed: expect.any(Number), cpuMs: expect.any(Number) });
    expect(idle!.heapUsed).toBeGreaterThan(0);
  });

  it("ignores a nextRunAfter that is not a number of seconds, with a warning", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "badNext" });
    expect(await started.runtime.call(ExtensionRun, run())).toEqual({});
    expect(logs(started.runtime, "warn")).toEqual([
      "update() returned nextRunAfter -5: it should be a number of seconds, 0 or more; ignored",
    ]);
  });

  it("answers Timeout when update() outlives the abort limit, and when the give-up limit comes first", async () => {
    ID = freshId("com.example.blips");
    const aborting = await startRuntime({ SVC_RUNTIME_CALL_ABORT_MS: "200", SVC_RUNTIME_CALL_GIVE_UP_MS: "5000" });
    await loadFixture(aborting, "blips", ID, { mode: "slow", ms: 3000 });
    const aborted = await aborting.runtime.request(ExtensionRun, run());
    expect(aborted.error).toEqual({
      code: ErrorCodes.Timeout,
      message: `${ID}: update() did not finish within 200 ms`,
    });
    const givingUp = await startRuntime({ SVC_RUNTIME_CALL_ABORT_MS: "5000", SVC_RUNTIME_CALL_GIVE_UP_MS: "300" });
    await loadFixture(givingUp, "blips", ID, { mode: "slow", ms: 3000 });
    const gaveUp = await givingUp.runtime.request(ExtensionRun, run());
    expect(gaveUp.error).toEqual({ code: ErrorCodes.Timeout, message: `${ID}: update() did not finish within 300 ms` });
  });

  it("a slice that never yields is interrupted: ExtensionFailed, and the extension keeps working", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "spin" });
    const response = await started.runtime.request(ExtensionRun, run());
    expect(response.error).toEqual({
      code: ErrorCodes.ExtensionFailed,
      message: "interrupted: the extension's code ran for more than 1000 ms without pausing",
    });
    await loadFixture(started, "blips", ID, { mode: "basic" });
    expect(await started.runtime.call(ExtensionRun, run())).toEqual({ nextRunAfter: 60 });
  });

  it("a request in flight when its extension is unloaded answers UnknownExtension", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "slow", ms: 5000 });
    const pending = started.runtime.request(ExtensionRun, run());
    await started.runtime.waitForNotification(
      ExtensionStatusChanged,
      (s) => s.extensionId === ID && s.status === "running",
    );
    await started.runtime.call(ExtensionUnload, { id: ID });
    expect((await pending).error).toEqual({
      code: ErrorCodes.UnknownExtension,
      message: `${ID} was unloaded while this request ran`,
    });
  });

  it("unload ends the extension: later requests get UnknownExtension", async () => {
    const started = next();
    await loadFixture(started, "blips", ID);
    expect(await started.runtime.call(ExtensionUnload, { id: ID })).toEqual({});
    expect((await started.runtime.request(ExtensionRun, run())).error!.code).toBe(ErrorCodes.UnknownExtension);
  });
});

describe("payload processing", () => {
  it("drops invalid payloads with an error log and forwards the valid one", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "invalid" });
    await started.runtime.call(ExtensionRun, run());
    expect(started.runtime.notifications(BlipUpdate, ID).map((u) => u.payload.id)).toEqual([`${ID}/good`]);
    const errors = logs(started.runtime, "error");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(new RegExp(`^dropped blip ${ID.replace(/\./g, "\\.")}/bad: "title" `));
    expect(errors[1]).toMatch(/^dropped blip .*\/nokey-missing-layout: /);
  });

  it("cuts to the limits: 4 actions, 4 facts, 5 items of 3 actions, 48 newest series points", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "truncate" });
    await started.runtime.call(ExtensionRun, run());
    const [list, series] = started.runtime.notifications(BlipUpdate, ID).map((u) => u.payload);
    expect(list.actions).toHaveLength(4);
    expect(list.facts).toHaveLength(4);
    expect(list.data.items).toHaveLength(5);
    expect(list.data.items.every((i: any) => i.actions.length === 3)).toBe(true);
    expect(series.data.series).toEqual(Array.from({ length: 48 }, (_, i) => i + 12));
  });

  it("forwards a payload of exactly 4096 bytes and drops one of 4097 with an error log", async () => {
    const started = next();
    const { runtime } = started;
    await loadFixture(started, "blips", ID, { mode: "pad", pad: 0, key: "p0" });
    await runtime.call(ExtensionRun, run());
    const probe = Buffer.byteLength(JSON.stringify(runtime.notifications(BlipUpdate, ID)[0].payload));
    await loadFixture(started, "blips", ID, { mode: "pad", pad: 4096 - probe, key: "p1" });
    await runtime.call(ExtensionRun, run());
    const atLimit = runtime.notifications(BlipUpdate, ID)[1].payload;
    expect(Buffer.byteLength(JSON.stringify(atLimit))).toBe(4096);
    await loadFixture(started, "blips", ID, { mode: "pad", pad: 4097 - probe, key: "p2" });
    await runtime.call(ExtensionRun, run());
    expect(runtime.notifications(BlipUpdate, ID)).toHaveLength(2);
    expect(logs(runtime, "error")).toEqual([
      `dropped blip ${ID}/p2: payload is 4097 bytes after truncation, over the 4096-byte limit`,
    ]);
  });

  it("ctx.end and ctx.remove: blip.end with the next seq, blip.remove; a bad state is refused", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "end" });
    await started.runtime.call(ExtensionRun, run());
    expect(started.runtime.notifications(BlipEnd, ID)).toEqual([
      { extensionId: ID, id: `${ID}/a`, seq: 2, state: "success", dismissAfter: 5 },
      { extensionId: ID, id: `${ID}/b`, seq: 1 },
    ]);
    expect(started.runtime.notifications(BlipRemove, ID)).toEqual([{ extensionId: ID, id: `${ID}/a` }]);
    expect(logs(started.runtime, "warn")[0]).toMatch(/^end refused: ctx\.end: "state" /);
  });

  it("ctx.log becomes log notifications at each level, with the extension id", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "log" });
    await started.runtime.call(ExtensionRun, run());
    expect(started.runtime.notifications(Log, ID)).toEqual([
      { extensionId: ID, level: "debug", message: "d" },
      { extensionId: ID, level: "info", message: "i" },
      { extensionId: ID, level: "warn", message: "w" },
      { extensionId: ID, level: "error", message: "e" },
    ]);
  });

  it("a fence denial becomes a warn log naming what was refused and the fix", async () => {
    const started = next();
    await loadFixture(started, "blips", ID, { mode: "deny" });
    await started.runtime.call(ExtensionRun, run());
    const warnings = logs(started.runtime, "warn");
    expect(warnings.filter((w) => w.startsWith("denied: "))).toEqual([
      'denied: fetch blocked.example.com: "blocked.example.com" is not in permissions.network; to allow it, add "blocked.example.com" to svc.permissions.network in package.json',
    ]);
  });
});

describe("extension.event", () => {
  it("passes a webhook event with its replyId; only that reply, once, becomes webhook.respond", async () => {
    const started = next();
    const { runtime } = started;
    await loadFixture(started, "blips", ID);
    const event = { type: "webhook", body: { n: 1 }, receivedAt: "2026-01-01T00:00:00.000Z" };
    expect(await runtime.call(ExtensionEvent, { id: ID, event, replyId: "r-1" })).toEqual({});
    expect(runtime.notifications(WebhookRespond).filter((r) => r.replyId === "r-1")).toEqual([
      { replyId: "r-1", status: 201, body: { got: { n: 1 } } },
    ]);
    expect(runtime.notifications(BlipUpdate, ID)[0].payload.title).toBe('hook {"n":1}');
    const warnings = logs(runtime, "warn");
    expect(warnings[0]).toBe(
      'respond refused: ctx.respond: no webhook request is waiting for reply "someone-elses-reply" (each event.replyId can be answered once)',
    );
    expect(warnings[1]).toMatch(/^second respond refused: ctx\.respond: no webhook request is waiting for reply "r-1"/);
  });

  it("passes a file event", async () => {
    const started = next();
    await loadFixture(started, "blips", ID);
    await started.runtime.call(ExtensionEvent, { id: ID, event: { type: "file", paths: ["/a", "/b"] } });
    expect(started.runtime.notifications(BlipUpdate, ID)[0].payload.title).toBe("/a,/b");
  });
});

describe("extension.action", () => {
  it("answers the seq of each blip onAction updated, after those notifications", async () => {
    const started = next();
    const { runtime } = started;
    await loadFixture(started, "blips", ID);
    const response = await runtime.request(ExtensionAction, {
      id: ID,
      blipId: `${ID}/row`,
      actionId: "done",
      input: "yes",
      itemId: "i1",
    });
    expect(response.result).toEqual({ emitted: { [`${ID}/row`]: 2, [`${ID}/other`]: 1 } });
    expect(runtime.notifications(BlipUpdate, ID).map((u) => u.payload.title)).toEqual(["done:yes:i1", "second"]);
    const seen = order(runtime, response.id);
    expect(seen.lastIndexOf("blip.update")).toBeLessThan(seen.indexOf("answer"));
    expect(seen.indexOf("blip.end")).toBeLessThan(seen.indexOf("answer"));
  });

  it("answers ExtensionFailed when onAction throws, and refuses another extension's blip", async () => {
    const started = next();
    await loadFixture(started, "blips", ID);
    const failed = await started.runtime.request(ExtensionAction, { id: ID, blipId: `${ID}/row`, actionId: "fail" });
    expect(failed.error).toEqual({ code: ErrorCodes.ExtensionFailed, message: "action failed" });
    const foreign = await started.runtime.request(ExtensionAction, { id: ID, blipId: "com.other/row", actionId: "x" });
    expect(foreign.error).toEqual({
      code: -32602,
      message: `invalid params for extension.action: "blipId" should start with "${ID}/"`,
    });
  });
});
