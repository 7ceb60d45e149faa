/** The transport and the protocol's error rows, against the real svc-runtime process. */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  BlipUpdate,
  ErrorCodes,
  ExtensionLoad,
  ExtensionRun,
  ExtensionStatusChanged,
  ExtensionUnload,
  HostSecretsGet,
  Initialize,
  Shutdown,
  ToolRun,
} from "@svc/runtime";
import { loadFixture, spawnRuntime, startRuntime, startSharedRuntime, type Started } from "./harness/setup.js";

const MAX_LINE = 8 * 1024 * 1024;

/** A request line of exactly `bytes` bytes (newline excluded) for an unknown method. */
function paddedLine(bytes: number, id: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"pad","params":{"x":"`;
  const tail = `"}}`;
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

describe("initialize", () => {
  it("answers protocol 1 with the runtime and Node versions", async () => {
    const { runtime, root } = spawnRuntime();
    const result = await runtime.call(Initialize, {
      protocolVersion: 1,
      dataDir: root.data,
      locale: "en-GB",
      timeZone: "UTC",
    });
    expect(result).toEqual({ protocolVersion: 1, runtimeVersion: "0.1.0", nodeVersion: process.versions.node });
  });

  it("refuses another protocol version, naming the supported ones", async () => {
    const { runtime, root } = spawnRuntime();
    const response = await runtime.request(Initialize, {
      protocolVersion: 2,
      dataDir: root.data,
      locale: "en",
      timeZone: "UTC",
    });
    expect(response.error).toEqual({
      code: ErrorCodes.UnsupportedProtocolVersion,
      message: "protocol version 2 is not supported: this runtime speaks version 1",
      data: { supported: [1] },
    });
  });

  it("gives guests the time zone initialize names", async () => {
    const { runtime, root } = spawnRuntime({ TZ: "UTC" });
    await runtime.call(Initialize, {
      protocolVersion: 1,
      dataDir: root.data,
      locale: "ja-JP",
      timeZone: "Asia/Kolkata",
    });
    await loadFixture({ runtime, root } as Started, "blips", "test.clock", { mode: "clock" });
    await runtime.call(ExtensionRun, { id: "test.clock", trigger: { type: "manual" } });
    const update = runtime.notifications(BlipUpdate).find((n) => n.payload.id === "test.clock/clock");
    expect(update?.payload).toMatchObject({ title: "5:30", data: { value: -330 } });
  });

  it("gives guests the locale initialize names, as Intl's default", async () => {
    const { runtime, root } = spawnRuntime({ TZ: "UTC" });
    await runtime.call(Initialize, { protocolVersion: 1, dataDir: root.data, locale: "de-DE", timeZone: "Asia/Tokyo" });
    await loadFixture({ runtime, root } as Started, "blips", "test.locale", { mode: "locale" });
    await runtime.call(ExtensionRun, { id: "test.locale", trigger: { type: "manual" } });
    const update = await runtime.waitFor(() =>
      runtime.notifications(BlipUpdate).find((n) => n.payload.id === "test.locale/locale"),
    );
    expect(update.payload).toMatchObject({
      title: `${new Date(0).toLocaleString("de-DE", { timeZone: "Asia/Tokyo" })} 1.234,5`,
    });
  });

  it("refuses a locale that is not a language tag, naming it", async () => {
    const { runtime, root } = spawnRuntime();
    const response = await runtime.request(Initialize, {
      protocolVersion: 1,
      dataDir: root.data,
      locale: "not a locale!",
      timeZone: "UTC",
    });
    expect(response.error?.code).toBe(ErrorCodes.InvalidParams);
    expect(response.error?.message).toBe(
      'locale: locale "not a locale!" is not a BCP 47 language tag, such as "en-GB" or "de"',
    );
  });

  it("refuses a time zone it does not know, naming it", async () => {
    const { runtime, root } = spawnRuntime();
    const response = await runtime.request(Initialize, {
      protocolVersion: 1,
      dataDir: root.data,
      locale: "en",
      timeZone: "Mars/Olympus_Mons",
    });
    expect(response.error?.code).toBe(ErrorCodes.InvalidParams);
    expect(response.error?.message).toMatch(/^timeZone: timeZone "Mars\/Olympus_Mons" is not an IANA time zone/);
  });

  it("refuses a second initialize", async () => {
    const { runtime, root } = await startRuntime();
    const response = await runtime.request(Initialize, {
      protocolVersion: 1,
      dataDir: root.data,
      locale: "en",
      timeZone: "UTC",
    });
    expect(response.error).toEqual({ code: ErrorCodes.InvalidRequest, message: "already initialized" });
  });

  it("refuses other requests before initialize", async () => {
    const { runtime } = spawnRuntime();
    const response = await runtime.request(ExtensionRun, { id: "a.b", trigger: { type: "manual" } });
    expect(response.error).toEqual({
      code: ErrorCodes.NotInitialized,
      message: "send initialize before extension.run",
    });
  });
});

describe("errors on the wire", () => {
  let shared: Started;
  beforeAll(async () => {
    shared = await startSharedRuntime();
  });

  it("-32700 for a line that is not JSON, with id null", async () => {
    const { runtime } = shared;
    await runtime.writeRaw("{not json\n");
    const error = await runtime.waitFor(() => runtime.received.find((m) => m.error?.code === -32700));
    expect(error.id).toBeNull();
    expect(error.error!.message).toMatch(/^line is not JSON: /);
  });

  it("-32600 for JSON that is not a request, -32601 for an unknown method", async () => {
    const { runtime } = shared;
    runtime.send({ hello: 1 });
    const unknown = await runtime.request("extension.explode", {});
    expect(unknown.error).toEqual({ code: -32601, message: 'unknown method "extension.explode"' });
    expect(runtime.received.find((m) => m.error?.code === -32600)?.error?.message).toBe(
      'a message must carry "jsonrpc": "2.0"',
    );
  });

  it("-32602 naming the path of the bad param", async () => {
    const { runtime } = shared;
    const response = await runtime.request(ExtensionRun, { id: "a.b", trigger: { type: "sometimes" } });
    expect(response.error!.code).toBe(-32602);
    expect(response.error!.message).toMatch(/^invalid params for extension\.run: "trigger\.type" /);
    const badId = await runtime.request(ExtensionUnload, { id: "../etc" });
    expect(badId.error!.message).toMatch(/"id" should be a reverse-DNS id/);
  });

  it("UnknownExtension for an id never loaded", async () => {
    const { runtime } = shared;
    const response = await runtime.request(ToolRun, { id: "com.example.none", tool: "x", action: "go", values: {} });
    expect(response.error).toEqual({
      code: ErrorCodes.UnknownExtension,
      message: 'no extension "com.example.none" is loaded: send extension.load first',
    });
  });

  it("ExtensionNotLoaded when dist/index.js is missing, with status crashed", async () => {
    const { runtime, root } = shared;
    const path = join(root.extensions, "com.example.empty");
    mkdirSync(path, { recursive: true });
    const response = await runtime.request(ExtensionLoad, {
      id: "com.example.empty",
      path,
      manifest: { id: "com.example.empty", version: "1.0.0" },
      preferences: {},
    });
    expect(response.error!.code).toBe(ErrorCodes.ExtensionNotLoaded);
    expect(response.error!.message).toMatch(
      /^com\.example\.empty could not be loaded: cannot read .*dist\/index\.js \(ENOENT\): build the extension with svckit build$/,
    );
    expect(runtime.notifications(ExtensionStatusChanged, "com.example.empty")).toEqual([
      { extensionId: "com.example.empty", status: "crashed", error: response.error!.message },
    ]);
    const run = await runtime.request(ExtensionRun, { id: "com.example.empty", trigger: { type: "manual" } });
    expect(run.error!.code).toBe(ErrorCodes.ExtensionNotLoaded);
  });

  it("refuses a manifest whose id is not the extension's", async () => {
    const { runtime, root } = shared;
    const response = await runtime.request(ExtensionLoad, {
      id: "a.b",
      path: root.extensions,
      manifest: { id: "c.d" },
      preferences: {},
    });
    expect(response.error).toEqual({
      code: -32602,
      message: 'invalid params for extension.load: "manifest.id" is "c.d", not "a.b"',
    });
  });

  it("ignores a response to an id it never sent, with a stderr note", async () => {
    const { runtime } = shared;
    runtime.send({ jsonrpc: "2.0", id: 424242, result: {} });
    await runtime.waitFor(() => runtime.stderr.includes("ignored a response to unknown id 424242"));
    expect(runtime.stdoutLines().every((m: any) => m.id !== 424242)).toBe(true);
  });
});

describe("line length", () => {
  it("accepts a line of exactly 8 MiB and discards one of 8 MiB + 1 without ending the process", async () => {
    const { runtime } = await startRuntime();
    await runtime.writeRaw(paddedLine(MAX_LINE, 901) + "\n");
    const atLimit = await runtime.waitFor(() => runtime.received.find((m) => m.id === 901), 15_000);
    expect(atLimit.error!.code).toBe(-32601);
    await runtime.writeRaw(paddedLine(MAX_LINE + 1, 902) + "\n");
    const past = await runtime.waitFor(
      () => runtime.received.find((m) => m.error?.code === ErrorCodes.MessageTooLarge),
      15_000,
    );
    expect(past).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32009,
        message: `line of ${MAX_LINE + 1} bytes discarded: a message may be at most ${MAX_LINE} bytes`,
      },
    });
    expect((await runtime.request("still.there")).error!.code).toBe(-32601);
  });
});

describe("ending", () => {
  it("shutdown answers {} and then the process exits 0", async () => {
    const { runtime } = await startRuntime();
    expect(await runtime.call(Shutdown, {})).toEqual({});
    expect(await runtime.exited).toEqual({ code: 0, signal: null });
  });

  it("refuses requests that arrive behind shutdown with ShuttingDown", async () => {
    const { runtime } = await startRuntime();
    const line = (id: number, method: string) => JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }) + "\n";
    await runtime.writeRaw(line(71, Shutdown.method) + line(72, "anything"));
    const refused = await runtime.waitFor(() => runtime.received.find((m) => m.id === 72));
    expect(refused.error).toEqual({ code: ErrorCodes.ShuttingDown, message: "the runtime is shutting down" });
    const answered = await runtime.waitFor(() => runtime.received.find((m) => m.id === 71));
    expect(answered.result).toEqual({});
    expect((await runtime.exited).code).toBe(0);
  });

  it("exits 0 when the host closes stdin", async () => {
    const { runtime } = await startRuntime();
    runtime.child.stdin.end();
    expect(await runtime.exited).toEqual({ code: 0, signal: null });
    expect(runtime.stderr).toContain("stdin closed");
  });

  it("host.* requests are declared with their params (sanity of the shared module)", () => {
    expect(HostSecretsGet.params.safeParse({ extensionId: "a.b", name: "bad name" }).success).toBe(false);
    expect(HostSecretsGet.params.safeParse({ extensionId: "a.b", name: "apiKey" }).success).toBe(true);
  });
});
