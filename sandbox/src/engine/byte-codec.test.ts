/**
 * Native base64 (byte-codec.ts): the raw host functions in a bare QuickJS-ng context, then the
 * prelude's use of them in real sandboxes — 1 MB through ctx.files and fetch inside one slice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { baseVariant as variant } from "./instance.js";
import { installByteCodec } from "./byte-codec.js";
import { MAX_CODEC_BASE64_CHARS, MAX_CODEC_BYTES } from "../limits.js";
import { Sandbox } from "../sandbox.js";
import { SandboxPool } from "../threads/pool.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "../sandbox.fixtures.js";
import { startHttpServer, type TestServer } from "../capabilities/test-context.js";

const MB = 1024 * 1024;
/** 1 MB of bytes 0..255 repeated, built in the guest with native copies only. */
const MAKE_MB = `const big = new Uint8Array(${MB}); for (let i = 0; i < 256; i++) big[i] = i; for (let n = 256; n < big.length; n *= 2) big.copyWithin(n, 0, n);`;
const EXPECTED_MB = Buffer.from(Uint8Array.from({ length: MB }, (_, i) => i & 255));

describe("the raw host functions", () => {
  let module: QuickJSWASMModule;
  let context: QuickJSContext;
  beforeAll(async () => {
    module = await newQuickJSWASMModuleFromVariant(variant);
  });
  const run = (code: string): unknown => {
    context = module.newContext();
    installByteCodec(context, () => false);
    const result = context.evalCode(code);
    const value = result.error ? { thrown: context.dump(result.error) } : context.dump(result.value);
    (result.error ?? result.value).dispose();
    context.dispose(); // asserts no guest object is left alive: every handle was disposed
    return value;
  };

  it("decodes forgiving base64 into a new ArrayBuffer and encodes a view's own bytes", () => {
    expect(
      run(`const b = __svc_bytesFromBase64(" /w A\\n"); [b instanceof ArrayBuffer, [...new Uint8Array(b)]]`),
    ).toEqual([true, [255, 0]]);
    expect(run(`const u = new Uint8Array([9, 1, 2, 3, 9]); __svc_bytesToBase64(u.buffer, 1, 3, 5)`)).toBe("AQID");
    expect(run(`__svc_bytesToBase64(new ArrayBuffer(0), 0, 0, 0)`)).toBe("");
  });

  it("takes base64 text up to its limit of 15 MiB characters, and refuses one block more", () => {
    expect(run(`__svc_bytesFromBase64("A".repeat(${MAX_CODEC_BASE64_CHARS})).byteLength`)).toBe(MAX_CODEC_BYTES);
    expect(
      run(`try { __svc_bytesFromBase64("A".repeat(${MAX_CODEC_BASE64_CHARS + 4})) } catch (e) { [e.name, e.message] }`),
    ).toEqual([
      "RangeError",
      `base64 decoding: the text is ${MAX_CODEC_BASE64_CHARS + 4} characters long, over the limit of ${MAX_CODEC_BASE64_CHARS}`,
    ]);
  });

  it("takes up to 11796480 bytes to encode, and refuses one more", () => {
    expect(MAX_CODEC_BYTES).toBe(11796480);
    expect(
      run(`__svc_bytesToBase64(new ArrayBuffer(${MAX_CODEC_BYTES}), 0, ${MAX_CODEC_BYTES}, ${MAX_CODEC_BYTES}).length`),
    ).toBe(MAX_CODEC_BASE64_CHARS);
    const over = MAX_CODEC_BYTES + 1;
    expect(
      run(
        `try { __svc_bytesToBase64(new ArrayBuffer(${over}), 0, ${over}, ${over}) } catch (e) { [e.name, e.message] }`,
      ),
    ).toEqual(["RangeError", `base64 encoding: the data is ${over} bytes, over the limit of ${MAX_CODEC_BYTES}`]);
  });

  it("bad input is a guest error, never a host crash", () => {
    const caught = (call: string) => run(`try { ${call}; "no error" } catch (e) { e.name + ": " + e.message }`);
    expect(caught(`__svc_bytesFromBase64(42)`)).toBe("TypeError: base64 decoding: expected a string, got number");
    expect(caught(`__svc_bytesFromBase64("QQ=")`)).toBe(
      "InvalidCharacterError: The string to be decoded is not correctly encoded.",
    );
    expect(caught(`__svc_bytesFromBase64("A")`)).toBe(
      "InvalidCharacterError: The string to be decoded is not correctly encoded.",
    );
    expect(caught(`__svc_bytesToBase64("AQID", 0, 1, 1)`)).toBe(
      "TypeError: base64 encoding: expected an ArrayBuffer, got string",
    );
    expect(caught(`__svc_bytesToBase64({ byteLength: 4 }, 0, 4, 4)`)).toBe(
      "TypeError: base64 encoding: expected an ArrayBuffer",
    );
    expect(caught(`__svc_bytesToBase64(new ArrayBuffer(4), 2, 4, 4)`)).toBe(
      "RangeError: base64 encoding: the range is outside the buffer",
    );
    expect(caught(`__svc_bytesToBase64(new ArrayBuffer(4), -1, 1, 4)`)).toBe(
      "TypeError: base64 encoding: offset and length should be integers ≥ 0",
    );
    // A lying byteLength property changes nothing; a total that is not the buffer's is refused, not read past.
    expect(
      run(
        `const b = new ArrayBuffer(4); Object.defineProperty(b, "byteLength", { value: 4096 }); __svc_bytesToBase64(b, 0, 4, 4)`,
      ),
    ).toBe("AAAAAA==");
    expect(caught(`__svc_bytesToBase64(new ArrayBuffer(4), 0, 8, 8)`)).toBe(
      "TypeError: base64 encoding: expected an ArrayBuffer",
    );
  });
});

describe("the prelude uses them", () => {
  const opened: Sandbox[] = [];
  let server: TestServer;
  let posted: Buffer | undefined;
  beforeAll(async () => {
    server = await startHttpServer((req, res) => {
      if (req.method === "GET") return res.end(EXPECTED_MB);
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        posted = Buffer.concat(chunks);
        res.end("ok");
      });
    });
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.dispose()));
    await server.close();
  });

  async function update(body: string, extra = {}): Promise<unknown> {
    const options = optionsFor(updateBundle(body), extra);
    const sandbox = await Sandbox.create(options, recorder());
    opened.push(sandbox);
    await sandbox.load();
    return sandbox.invoke(UPDATE);
  }

  it("1 MB of bytes round-trips through ctx.files.write(path, Uint8Array) and read(path, base64) well inside the slice", async () => {
    const options = optionsFor(
      updateBundle(`
      ${MAKE_MB}
      await ctx.files.write("big.bin", big);
      const text = await ctx.files.read("big.bin", { encoding: "base64" });
      const back = new Uint8Array(await new Response(text.length ? Uint8Array.from(atob(text.slice(0, 8)), (c) => c.charCodeAt(0)) : []).arrayBuffer());
      return { text, head: [...back] };`),
    );
    const sandbox = await Sandbox.create(options, recorder());
    opened.push(sandbox);
    await sandbox.load();
    const result = (await sandbox.invoke(UPDATE)) as { text: string; head: number[] };
    // Inside the slice in CPU time (what slices are timed by), however long the file I/O waited.
    expect((await sandbox.diagnostics()).longestSliceMs).toBeLessThan(1000);
    expect(result.text).toBe(EXPECTED_MB.toString("base64"));
    expect(result.head).toEqual([0, 1, 2, 3, 4, 5]);
    expect(readFileSync(join(options.dataDir, "big.bin")).equals(EXPECTED_MB)).toBe(true);
  });

  it("1 MB fetched with response.arrayBuffer() and posted back as a Uint8Array body, inside the slice", async () => {
    posted = undefined;
    const result = (await update(
      `
      const bytes = new Uint8Array(await (await fetch(${JSON.stringify(server.url("/blob"))})).arrayBuffer());
      const copy = await new Response(bytes).arrayBuffer();
      const sent = await (await fetch(${JSON.stringify(server.url("/echo"))}, { method: "POST", body: new Uint8Array(copy) })).text();
      return { length: bytes.length, sample: [bytes[0], bytes[255], bytes[256], bytes[${MB - 1}]], sent };`,
      { permissions: { network: [`127.0.0.1:${server.port}`], files: [], exec: [] } },
    )) as { length: number; sample: number[]; sent: string };
    expect(result).toEqual({ length: MB, sample: [0, 255, 0, 255], sent: "ok" });
    // Inside the slice in CPU time (what slices are timed by), however long the network waited.
    expect((await opened.at(-1)!.diagnostics()).longestSliceMs).toBeLessThan(1000);
    expect((posted as Buffer | undefined)?.equals(EXPECTED_MB)).toBe(true);
  });

  it("a value that is not bytes is a TypeError in the guest; bad or over-long base64 a clear error", async () => {
    await expect(
      update(`try { await ctx.files.write("x.bin", 42) } catch (e) { return e.name + ": " + e.message }`),
    ).resolves.toBe("TypeError: expected bytes (an ArrayBuffer or a typed array), got number");
    await expect(update(`try { atob("a*b=") } catch (e) { return e.name + ": " + e.message }`)).resolves.toBe(
      "InvalidCharacterError: The string to be decoded is not correctly encoded.",
    );
    await expect(
      update(`try { atob("A".repeat(${MAX_CODEC_BASE64_CHARS + 4})) } catch (e) { return e.name + ": " + e.message }`),
    ).resolves.toBe(
      `RangeError: base64 decoding: the text is ${MAX_CODEC_BASE64_CHARS + 4} characters long, over the limit of ${MAX_CODEC_BASE64_CHARS}`,
    );
  });

  it("the globals are gone before extension code runs", async () => {
    await expect(
      update(`return [typeof __svc_bytesFromBase64, typeof __svc_bytesToBase64, "__svc_bytesToBase64" in globalThis]`),
    ).resolves.toEqual(["undefined", "undefined", false]);
  });
});

describe("in a pool", () => {
  let pool: SandboxPool;
  beforeAll(() => {
    pool = new SandboxPool({ threads: 1 });
  });
  afterAll(() => pool.dispose());

  it("a second sandbox on the same sandbox thread works after a 1 MB round trip in the first", async () => {
    const first = await pool.create(
      optionsFor(
        updateBundle(
          `${MAKE_MB} await ctx.files.write("big.bin", big); return (await ctx.files.read("big.bin", { encoding: "base64" })).length;`,
        ),
      ),
      recorder(),
    );
    const second = await pool.create(
      optionsFor(
        updateBundle(
          `await ctx.files.write("b.bin", new Uint8Array([1, 2, 3])); return ctx.files.read("b.bin", { encoding: "base64" });`,
        ),
      ),
      recorder(),
    );
    await Promise.all([first.load(), second.load()]);
    await expect(first.invoke(UPDATE)).resolves.toBe(EXPECTED_MB.toString("base64").length);
    await expect(second.invoke(UPDATE)).resolves.toBe("AQID");
    await Promise.all([first.dispose(), second.dispose()]);
  });
});
