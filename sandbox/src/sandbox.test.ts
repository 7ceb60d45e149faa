/**
 * The in-thread Sandbox: loading a bundle, calling its entry points, the ctx members and the
 * guest globals, each compared with what Node gives for the same input.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { HEAP_FIGURE_MS, Sandbox } from "./sandbox.js";
import { SandboxError } from "./errors.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "./sandbox.fixtures.js";
import type { Invocation } from "./types.js";

const opened: Sandbox[] = [];
afterAll(async () => Promise.all(opened.map((s) => s.dispose())));

async function sandboxFor(code: string, rec = recorder()) {
  const sandbox = await Sandbox.create(optionsFor(code), rec);
  opened.push(sandbox);
  return { sandbox, rec, loaded: await sandbox.load() };
}

async function update(body: string, rec = recorder()): Promise<unknown> {
  const { sandbox } = await sandboxFor(updateBundle(body), rec);
  return sandbox.invoke(UPDATE);
}

describe("loading a bundle", () => {
  it("reports the entry points and the tools, JSON-copied (functions dropped)", async () => {
    const { loaded } = await sandboxFor(`
      exports.default = { update() {}, onAction() {}, tools: { hash: { title: "Hash", icon: "number", run() {} } } };`);
    expect(loaded).toEqual({
      tools: { hash: { title: "Hash", icon: "number" } },
      hasUpdate: true,
      hasOnEvent: false,
      hasOnAction: true,
    });
  });

  it("uses module.exports when there is no default export", async () => {
    const { loaded } = await sandboxFor(`module.exports = { onEvent() {} };`);
    expect(loaded).toMatchObject({ hasUpdate: false, hasOnEvent: true, tools: {} });
  });

  it("a syntax error fails the load with the parser's message", async () => {
    const sandbox = await Sandbox.create(optionsFor(`module.exports = {`), recorder());
    opened.push(sandbox);
    await expect(sandbox.load()).rejects.toMatchObject({
      code: "guest",
      message: expect.stringMatching(/expecting|unexpected/i),
    });
  });

  it("a throw at load time fails the load with the error's message, never its stack", async () => {
    const sandbox = await Sandbox.create(optionsFor(`throw new TypeError("bad config")`), recorder());
    opened.push(sandbox);
    await expect(sandbox.load()).rejects.toEqual(new SandboxError("guest", "bad config"));
  });
});

describe("invoking entry points", () => {
  it("update() gets ctx with the id, trigger and preferences, and its result is JSON-copied", async () => {
    const { sandbox } = await sandboxFor(
      updateBundle(`return { id: ctx.extensionId, trigger: ctx.trigger, prefs: ctx.preferences, when: new Date(0) };`),
    );
    const result = await sandbox.invoke({
      kind: "update",
      ctx: { trigger: { type: "manual" }, preferences: { city: "Oslo" } },
    });
    expect(result).toEqual({
      id: sandbox.id,
      trigger: { type: "manual" },
      prefs: { city: "Oslo" },
      when: "1970-01-01T00:00:00.000Z",
    });
  });

  it("onEvent and onAction get their argument", async () => {
    const { sandbox } = await sandboxFor(
      `module.exports = { onEvent: (ctx, e) => e.body, onAction: (ctx, a) => a.actionId };`,
    );
    await expect(
      sandbox.invoke({
        kind: "onEvent",
        ctx: { preferences: {} },
        event: { type: "webhook", body: { n: 1 }, receivedAt: "2026-01-01T00:00:00.000Z" },
      }),
    ).resolves.toEqual({ n: 1 });
    await expect(
      sandbox.invoke({ kind: "onAction", ctx: { preferences: {} }, action: { actionId: "open" } }),
    ).resolves.toBe("open");
  });

  it("a throw rejects with the guest's message, its stack kept apart for the author's log", async () => {
    const { sandbox } = await sandboxFor(updateBundle(`throw new RangeError("no token")`));
    const thrown = await sandbox.invoke(UPDATE).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(SandboxError);
    expect(thrown).toMatchObject({ code: "guest", message: "no token", guestStack: expect.stringMatching(/^\s+at /m) });
  });

  it("tools: run(action, values, ctx) and drop(action, files, ctx) with dataDir and signal", async () => {
    const { sandbox } = await sandboxFor(`module.exports = { tools: { t: {
      run: (action, values, ctx) => ({ action, values, dataDir: ctx.dataDir, aborted: ctx.signal.aborted }),
      drop: (action, files, ctx) => ({ message: action, outputs: files }),
    } } };`);
    const run: Invocation = {
      kind: "tool.run",
      ctx: { preferences: {} },
      tool: "t",
      action: "go",
      values: { a: 1 },
      files: [],
    };
    const result = (await sandbox.invoke(run)) as { dataDir: string };
    expect(result).toMatchObject({ action: "go", values: { a: 1 }, aborted: false });
    expect(result.dataDir).toMatch(/^\//);
    const drop: Invocation = {
      kind: "tool.drop",
      ctx: { preferences: {} },
      tool: "t",
      action: "zip",
      files: ["/tmp/a"],
    };
    await expect(sandbox.invoke(drop)).resolves.toEqual({ message: "zip", outputs: ["/tmp/a"] });
  });

  it("an unknown tool or a tool without drop() is a clear guest error", async () => {
    const { sandbox } = await sandboxFor(`module.exports = { tools: { t: { run() {} } } };`);
    const base = { ctx: { preferences: {} }, action: "a", files: [] };
    await expect(sandbox.invoke({ kind: "tool.run", tool: "nope", values: {}, ...base })).rejects.toThrow(
      'the extension has no tool named "nope"',
    );
    await expect(sandbox.invoke({ kind: "tool.drop", tool: "t", ...base })).rejects.toThrow(
      'tool "t" has no drop() function',
    );
  });

  it("aborting a tool run rejects at once and aborts ctx.signal in the guest", async () => {
    const rec = recorder();
    const { sandbox } = await sandboxFor(
      `module.exports = { tools: { slow: {
      run: (a, v, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => { console.log("guest saw abort: " + ctx.signal.reason.name); resolve("late"); })),
    } } };`,
      rec,
    );
    const controller = new AbortController();
    const pending = sandbox.invoke(
      { kind: "tool.run", ctx: { preferences: {} }, tool: "slow", action: "a", values: {}, files: [] },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("timed out after 30 s")), 20);
    await expect(pending).rejects.toEqual(new SandboxError("aborted", "timed out after 30 s"));
    await expect.poll(() => rec.logs()).toEqual(["guest saw abort: AbortError"]);
  });

  it("dispose is idempotent and later calls fail with code disposed", async () => {
    const sandbox = await Sandbox.create(optionsFor(updateBundle(`return 1`)), recorder());
    await sandbox.load();
    await sandbox.dispose();
    await sandbox.dispose();
    await expect(sandbox.invoke(UPDATE)).rejects.toMatchObject({ code: "disposed" });
  });
});

describe("ctx members map to forwarded ops", () => {
  it("emit, end, remove, respond, notify, openURL, setPreference, secrets, oauth, workingHours", async () => {
    const rec = recorder({
      "secrets.get": { value: "s3cret" },
      workingHours: null,
      "oauth.token": { token: "t", connection: { id: "c" } },
    });
    const result = await update(
      `
      await ctx.emit({ key: "build", title: "Build" });
      await ctx.end("build", { state: "success", dismissAfter: 5 });
      await ctx.remove("old");
      await ctx.respond("r1", { ok: true }, 201);
      await ctx.notify("Done", "all green");
      await ctx.openURL(new URL("https://example.com/x"));
      await ctx.setPreference("city", "Oslo");
      const secret = await ctx.secrets.get("token");
      await ctx.secrets.set("token", "v");
      await ctx.secrets.delete("token");
      const token = await ctx.oauth.token("github");
      await ctx.oauth.invalidate({ provider: "github", connection: "c", extra: 1 });
      const hours = await ctx.workingHours();
      ctx.log.warn("careful", 1);
      return { secret, token, hours: hours === undefined ? "undefined" : hours };`,
      rec,
    );
    expect(result).toEqual({ secret: "s3cret", token: { token: "t", connection: { id: "c" } }, hours: "undefined" });
    expect(rec.calls).toEqual([
      { op: "emit", args: { blip: { key: "build", title: "Build" } } },
      { op: "end", args: { key: "build", state: "success", dismissAfter: 5 } },
      { op: "remove", args: { key: "old" } },
      { op: "respond", args: { replyId: "r1", body: { ok: true }, status: 201 } },
      { op: "notify", args: { title: "Done", body: "all green" } },
      { op: "openURL", args: { url: "https://example.com/x" } },
      { op: "preferences.set", args: { name: "city", value: "Oslo" } },
      { op: "secrets.get", args: { name: "token" } },
      { op: "secrets.set", args: { name: "token", value: "v" } },
      { op: "secrets.delete", args: { name: "token" } },
      { op: "oauth.token", args: { provider: "github" } },
      { op: "oauth.invalidate", args: { provider: "github", connection: "c" } },
      { op: "workingHours", args: {} },
      { op: "log", args: { level: "warn", message: "careful 1" } },
    ]);
  });

  it("a forwarded op that fails on the host rejects in the guest with the host's message", async () => {
    const rec = recorder();
    rec.forwarded.forward = async () => {
      throw new RangeError("no secret store available: install and unlock gnome-keyring");
    };
    await expect(
      update(
        `try { await ctx.secrets.get("apiKey") } catch (e) { return [e.name, e.message, e instanceof RangeError] }`,
        rec,
      ),
    ).resolves.toEqual(["RangeError", "no secret store available: install and unlock gnome-keyring", true]);
  });

  it("a one-string argument crosses exactly as JSON would carry it; a value of another type is checked as before", async () => {
    const rec = recorder();
    const name = 'a"b\\c\n\u2028☃😀\ud800';
    const literal = JSON.stringify(name);
    // A storage key set through the generic encoder is found again through the one-string path.
    await expect(
      update(
        `await ctx.storage.set(${literal}, 7); const v = await ctx.storage.get(${literal}); await ctx.storage.delete(${literal}); await ctx.remove(${literal}); return [v, await ctx.storage.get(${literal})]`,
        rec,
      ),
    ).resolves.toEqual([7, null]);
    expect(rec.calls.map((call) => call.args)).toEqual([{ key: name }]);
    await expect(
      update(`try { await ctx.storage.get(42) } catch (e) { return e.name + ": " + e.message }`),
    ).resolves.toBe(`TypeError: storage.get: "key" should be a string`);
  });

  it("storage round-trips through the capabilities", async () => {
    await expect(
      update(
        `await ctx.storage.set("n", { a: [1] }); const v = await ctx.storage.get("n"); await ctx.storage.delete("n"); return [v, await ctx.storage.get("n")];`,
      ),
    ).resolves.toEqual([{ a: [1] }, null]);
  });

  it("ctx.files reads and writes text and base64 as @svc/api's Files type says", async () => {
    const code = `
      await ctx.files.write("notes/a.txt", "héllo");
      await ctx.files.write("bin.dat", "AAEC", { encoding: "base64" });
      await ctx.files.write("bytes.dat", new Uint8Array([255, 0]));
      return [
        await ctx.files.read("notes/a.txt"),
        await ctx.files.read("notes/a.txt", { encoding: "base64" }),
        await ctx.files.read("bin.dat", { encoding: "base64" }),
        await ctx.files.read("bytes.dat", { encoding: "base64" }),
        await ctx.files.list("."),
      ];`;
    await expect(update(code)).resolves.toEqual([
      "héllo",
      Buffer.from("héllo").toString("base64"),
      "AAEC",
      "/wA=",
      ["bin.dat", "bytes.dat", "notes"],
    ]);
  });
});

describe("guest globals behave as the web platform's (compared with Node)", () => {
  it("URL and URLSearchParams", async () => {
    const inputs: [string, string?][] = [
      ["https://user:pw@Example.COM:8080/a/../b c?x=1&y=a+b#frag"],
      ["/p?q=ä", "https://x.test/base/"],
      ["http://[::1]:80/"],
    ];
    const result = (await update(`
      const inputs = ${JSON.stringify(inputs)};
      const out = inputs.map(([i, b]) => { const u = new URL(i, b); return [u.href, u.origin, u.host, u.pathname, u.search, u.hash, u.username, u.port, [...u.searchParams]]; });
      const u = new URL("https://a.test/?a=1");
      u.searchParams.append("b", "x y&z");
      u.pathname = "/new path";
      u.hash = "h";
      const p = new URLSearchParams({ q: "1 2", r: "é" });
      p.sort();
      let invalid; try { new URL("nope") } catch (e) { invalid = e.name }
      return { out, edited: u.href, params: p.toString(), canParse: [URL.canParse("x:"), URL.canParse("nope")], invalid };`)) as Record<
      string,
      unknown
    >;
    const expected = inputs.map(([i, b]) => {
      const u = new URL(i, b);
      return [u.href, u.origin, u.host, u.pathname, u.search, u.hash, u.username, u.port, [...u.searchParams]];
    });
    const u = new URL("https://a.test/?a=1");
    u.searchParams.append("b", "x y&z");
    u.pathname = "/new path";
    u.hash = "h";
    const p = new URLSearchParams({ q: "1 2", r: "é" });
    p.sort();
    expect(result).toEqual({
      out: expected,
      edited: u.href,
      params: p.toString(),
      canParse: [true, false],
      invalid: "TypeError",
    });
  });

  it("TextEncoder, TextDecoder (streaming, replacement, fatal), atob and btoa", async () => {
    const text = "héllo € 𝄞 \uD800 end";
    const result = (await update(`
      const bytes = new TextEncoder().encode(${JSON.stringify(text)});
      const d = new TextDecoder();
      const streamed = d.decode(bytes.subarray(0, 9), { stream: true }) + d.decode(bytes.subarray(9));
      let fatal; try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff])) } catch (e) { fatal = e.name }
      return { bytes: [...bytes], streamed, bad: new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0x41, 0xf0, 0x9f])), fatal,
        b64: btoa("\\x00\\xffhi"), back: atob(" aGk = ".replace(/ /g, "")), bom: new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])) };`)) as Record<
      string,
      unknown
    >;
    const bytes = new TextEncoder().encode(text);
    expect(result).toEqual({
      bytes: [...bytes],
      streamed: new TextDecoder().decode(bytes),
      bad: new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0x41, 0xf0, 0x9f])),
      fatal: "TypeError",
      b64: btoa("\x00\xffhi"),
      back: "hi",
      bom: "A",
    });
  });

  it("crypto, structuredClone, performance, queueMicrotask, timers and AbortController", async () => {
    const result = (await update(`
      const buf = crypto.getRandomValues(new Uint8Array(32));
      const uuid = crypto.randomUUID();
      let quota; try { crypto.getRandomValues(new Uint8Array(65537)) } catch (e) { quota = e.name }
      const source = { d: new Date(5), m: new Map([[1, { s: new Set([2]) }]]), r: /x/g, t: new Uint16Array([1, 2]) };
      source.self = source;
      const c = structuredClone(source);
      let cloneFn; try { structuredClone(() => 1) } catch (e) { cloneFn = e.name }
      const order = [];
      queueMicrotask(() => order.push("micro"));
      await new Promise((r) => setTimeout(() => { order.push("timeout"); r() }, 5));
      let ticks = 0;
      await new Promise((r) => { const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); r() } }, 1) });
      const cleared = await new Promise((r) => { const id = setTimeout(() => r("fired"), 5); clearTimeout(id); setTimeout(() => r("cleared"), 20) });
      const ac = new AbortController(); let heard = 0; ac.signal.addEventListener("abort", () => heard++); ac.abort(); ac.abort();
      return { nonZero: buf.some((b) => b !== 0), uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid), quota,
        clone: [c.d instanceof Date && c.d.getTime(), c.m.get(1).s.has(2), c.r.flags, [...c.t], c.self === c, c !== source], cloneFn,
        perf: typeof performance.now(), order, ticks, cleared, abort: [ac.signal.aborted, ac.signal.reason.name, heard], timeout: typeof AbortSignal.timeout };`)) as Record<
      string,
      unknown
    >;
    expect(result).toEqual({
      nonZero: true,
      uuid: true,
      quota: "QuotaExceededError",
      clone: [5, true, "g", [1, 2], true, true],
      cloneFn: "DataCloneError",
      perf: "number",
      order: ["micro", "timeout"],
      ticks: 3,
      cleared: "cleared",
      abort: [true, "AbortError", 1],
      timeout: "function",
    });
  });

  it("console formats like Node's util.format for the common cases", async () => {
    const rec = recorder();
    await update(
      `console.log("%s=%d %j", "a", 42, { b: [1] }, "tail"); console.error(new Error("boom").message); console.debug({ x: { y: { z: { w: 1 } } } }); return 1;`,
      rec,
    );
    expect(rec.calls.map((c) => c.args)).toEqual([
      { level: "info", message: 'a=42 {"b":[1]} tail' },
      { level: "error", message: "boom" },
      { level: "debug", message: "{ x: { y: { z: { w: 1 } } } }" },
    ]);
  });
});

describe("diagnostics", () => {
  it("reports heap, guest CPU time and slices", async () => {
    const { sandbox } = await sandboxFor(updateBundle(`let s = 0; for (let i = 0; i < 2e5; i++) s += i; return s;`));
    await sandbox.invoke(UPDATE);
    const d = await sandbox.diagnostics();
    expect(d.heapUsed).toBeGreaterThan(100_000);
    expect(d.heapUsed).toBeLessThan(4_000_000);
    expect(d.cpuMs).toBeGreaterThan(0);
    expect(d.longestSliceMs).toBeGreaterThan(0);
    expect(d.longestSliceMs).toBeLessThanOrEqual(d.cpuMs);
    expect(d).toMatchObject({ interruptedSlices: 0, memoryLimitHits: 0, denials: [] });
  });

  it("keeps the usage a call left when it succeeds, and none when the latest call fails or is aborted", async () => {
    const { sandbox } = await sandboxFor(
      `globalThis.kept = [];
       module.exports = {
         async update(ctx) { globalThis.kept.push("x".repeat(20 << 20)); },
         async onAction(ctx, action) { if (action.fail) throw new Error("no"); if (action.hang) await new Promise(() => {}); },
       };`,
    );
    const action = (fields: object, signal?: AbortSignal) =>
      sandbox.invoke({ kind: "onAction", ctx: { preferences: {} }, action: fields }, { signal });
    expect(sandbox.lastCallUsage).toBeUndefined();
    await sandbox.invoke(UPDATE);
    const usage = sandbox.lastCallUsage;
    // Measured as the call ended: the 20 MB it kept, and the same figures diagnostics() gives.
    expect(usage?.heapUsed).toBeGreaterThan(20_000_000);
    const { heapUsed, cpuMs } = await sandbox.diagnostics();
    expect(usage).toEqual({ heapUsed, cpuMs });
    await expect(action({ fail: true })).rejects.toThrow("no");
    expect(sandbox.lastCallUsage).toBeUndefined();
    await action({});
    expect(sandbox.lastCallUsage).toBeDefined();
    const controller = new AbortController();
    const hung = action({ hang: true }, controller.signal);
    controller.abort();
    await expect(hung).rejects.toMatchObject({ code: "aborted" });
    expect(sandbox.lastCallUsage).toBeUndefined();
  });

  it(`measures the heap again once the interpreter's memory grew, else reuses the figure for up to ${HEAP_FIGURE_MS / 1000} s`, async () => {
    const { sandbox } = await sandboxFor(
      `globalThis.kept = []; module.exports = { async update(ctx) { globalThis.kept.push("x".repeat(20 << 20)); } };`,
    );
    // The clock is moved only around diagnostics() (no guest slice runs inside it).
    const start = performance.now();
    const at = async (ms: number) => {
      const clock = vi.spyOn(performance, "now").mockReturnValue(start + ms);
      try {
        return (await sandbox.diagnostics()).heapUsed;
      } finally {
        clock.mockRestore();
      }
    };
    const before = await at(0);
    // A small allocation leaves the linear memory as it was: the figure is reused, not re-walked…
    await sandbox.invoke({ kind: "onAction", ctx: { preferences: {} }, action: {} });
    expect(await at(HEAP_FIGURE_MS - 1)).toBe(before);
    // … until it is HEAP_FIGURE_MS old.
    const measured = await at(HEAP_FIGURE_MS);
    expect(measured).not.toBe(before);
    // 20 MB more is past the initial 16 MB of linear memory, which grows: measured again.
    await sandbox.invoke(UPDATE);
    expect((await sandbox.diagnostics()).heapUsed).toBeGreaterThan(measured + 20_000_000);
  });
});
