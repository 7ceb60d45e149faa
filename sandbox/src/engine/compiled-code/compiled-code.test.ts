/**
 * Compiled code: the patched engine writes and reads a bundle's compiled form, which behaves
 * exactly like the source it came from; the code cache keys, stores and checks it; and the
 * pool runs it on an extension's second start.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../limits.js";
import { createInstance, type QuickJSInstance } from "../instance.js";
import { SandboxPool } from "../../threads/pool.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "../../sandbox.fixtures.js";
import { CodeCache, readCompiledCode, writeCompiledFile } from "./code-cache.js";
import { bundleScript, type CompiledScripts } from "./compiled-scripts.js";
import { EVAL_FUNCTION_EXPORT, patchForCompiledCode } from "./wasm-patch.js";

const instances: QuickJSInstance[] = [];
async function scriptsOf(): Promise<{ instance: QuickJSInstance; scripts: CompiledScripts }> {
  const instance = await createInstance(DEFAULT_LIMITS);
  instances.push(instance);
  if (!instance.scripts) throw new Error("the engine was not patched");
  return { instance, scripts: instance.scripts };
}
afterAll(() => {
  for (const { context, runtime } of instances) {
    context.dispose();
    runtime.dispose();
  }
});

const wasmPath = createRequire(import.meta.url).resolve("@jitl/quickjs-ng-wasmfile-release-sync/wasm");

describe("the engine patch", () => {
  it("patches the pinned build into a valid module with the new export, and leaves any other build alone", async () => {
    const original = await readFile(wasmPath);
    const patched = patchForCompiledCode(original);
    expect(patched).toBeDefined();
    // @types/node's WebAssembly namespace leaves out Module.exports (it is in lib.dom).
    const { exports } = WebAssembly.Module as unknown as { exports(module: WebAssembly.Module): { name: string }[] };
    const names = exports(new WebAssembly.Module(patched!)).map((entry) => entry.name);
    expect(names).toContain(EVAL_FUNCTION_EXPORT);
    expect(patched!.length - original.length).toBeLessThan(100);
    const other = Uint8Array.from(original);
    other[other.length - 1] ^= 1;
    expect(patchForCompiledCode(other)).toBeUndefined();
  });
});

describe("compiled scripts", () => {
  const source = `(function (module) {
    function where() { return new Error("here").stack; }
    const label = "résumé ✓";
    module.exports = { add: (a, b) => a + b, where, label, text: String(where).length, big: 2n ** 70n };
  })`;
  const probe = `(m) => [m.exports.add(2, 3), m.exports.label, m.exports.text, String(m.exports.big), m.exports.where().split("\\n")[0].trim()]`;

  async function runIn(
    instance: QuickJSInstance,
    fn: import("quickjs-emscripten-core").QuickJSHandle,
  ): Promise<unknown> {
    const { context } = instance;
    const module = context.newObject();
    context.unwrapResult(context.callFunction(fn, context.undefined, module)).dispose();
    const read = context.unwrapResult(context.evalCode(probe));
    const result = context.unwrapResult(context.callFunction(read, context.undefined, module));
    const out = context.dump(result);
    result.dispose();
    read.dispose();
    module.dispose();
    return out;
  }

  it("runs from bytes in another instance exactly as from source: values, text, stack lines, source text", async () => {
    const a = await scriptsOf();
    const direct = a.instance.context.unwrapResult(a.instance.context.evalCode(source, "dist/index.js"));
    const fromSource = await runIn(a.instance, direct);
    direct.dispose();

    const compiler = await scriptsOf();
    const compiled = compiler.scripts.compile(source, "dist/index.js");
    const bytes = compiler.scripts.toBytes(compiled.value!)!;
    compiled.value!.dispose();

    const b = await scriptsOf();
    const read = b.scripts.fromBytes(bytes)!;
    const ran = b.scripts.run(read)!;
    read.dispose();
    const fromBytes = await runIn(b.instance, ran.value!);
    ran.value!.dispose();
    expect(fromBytes).toEqual(fromSource);
    expect(fromSource).toEqual([
      5,
      "résumé ✓",
      String(source).indexOf("}") - source.indexOf("function where") + 1,
      "1180591620717411303424",
      "at where (dist/index.js:2:35)",
    ]);
  });

  it("runs nothing for a handle that is not compiled code, and reads damaged bytes as nothing", async () => {
    const { instance, scripts } = await scriptsOf();
    const number = instance.context.newNumber(42);
    expect(scripts.run(number)).toBeUndefined();
    number.dispose();
    expect(scripts.fromBytes(Uint8Array.of(1, 2, 3, 4))).toBeUndefined();
    const compiled = scripts.compile("1 + 1", "x.js");
    const bytes = scripts.toBytes(compiled.value!)!;
    compiled.value!.dispose();
    expect(scripts.fromBytes(bytes.subarray(0, bytes.length >> 1))).toBeUndefined();
  });

  it("reports a syntax error from compile with its place", async () => {
    const { instance, scripts } = await scriptsOf();
    const result = scripts.compile(bundleScript("let x = ;"), "dist/index.js");
    expect(result.error).toBeDefined();
    expect(instance.context.dump(result.error!)).toMatchObject({
      name: "SyntaxError",
      message: "unexpected token in expression: ';'",
    });
    result.error!.dispose();
  });
});

describe("the code cache", () => {
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

  it("keys by engine, file name and exact source", () => {
    const key = CodeCache.key("module.exports = 1", "dist/index.js");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(CodeCache.key("module.exports = 1", "dist/index.js")).toBe(key);
    expect(CodeCache.key("module.exports = 1 ", "dist/index.js")).not.toBe(key);
    expect(CodeCache.key("module.exports = 1", "dist/other.js")).not.toBe(key);
  });

  it("keeps compiled forms on disk across pools, checks their digest, and drops a damaged one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-code-cache-"));
    const key = CodeCache.key("a", "dist/index.js");
    await writeCompiledFile(new CodeCache({ dir }).fileFor("com.example.a", key)!, "com.example.a", bytes);
    const file = join(dir, `com.example.a.${key}.qjsc`);
    const stored = readFileSync(file);
    expect(stored.subarray(0, 32)).toEqual(createHash("sha256").update(bytes).digest());
    expect(readCompiledCode(new CodeCache({ dir }).locate("com.example.a", key))).toStrictEqual(bytes);

    stored[40] ^= 0xff;
    writeFileSync(file, stored);
    expect(readCompiledCode(new CodeCache({ dir }).locate("com.example.a", key))).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it("replaces an extension's older compiled form, not another extension's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-code-cache-"));
    const cache = new CodeCache({ dir });
    const [v1, v2, other] = [CodeCache.key("v1", "f"), CodeCache.key("v2", "f"), CodeCache.key("o", "f")];
    await writeCompiledFile(cache.fileFor("com.a", v1)!, "com.a", bytes);
    await writeCompiledFile(cache.fileFor("com.a.b", other)!, "com.a.b", bytes);
    await writeCompiledFile(cache.fileFor("com.a", v2)!, "com.a", bytes);
    expect(readdirSync(dir).sort()).toEqual([`com.a.${v2}.qjsc`, `com.a.b.${other}.qjsc`].sort());
  });

  it("with a folder, keeps nothing in memory, and has no file for an id that is not a safe file name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-code-cache-"));
    const cache = new CodeCache({ dir });
    const key = CodeCache.key("x", "f");
    expect(cache.fileFor("../escape", key)).toBeUndefined();
    cache.keep(key, bytes);
    expect(readCompiledCode(cache.locate("../escape", key))).toBeUndefined();
  });

  it("without a folder, keeps compiled code in memory up to its bound, oldest out first", async () => {
    const cache = new CodeCache({ maxMemoryBytes: 2500 });
    const keys = ["p", "q", "r"].map((code) => CodeCache.key(code, "f"));
    for (const key of keys) cache.keep(key, bytes);
    expect(readCompiledCode(cache.locate("com.a", keys[0]!))).toBeUndefined();
    expect(readCompiledCode(cache.locate("com.a", keys[1]!))).toEqual(bytes);
    expect(readCompiledCode(cache.locate("com.a", keys[2]!))).toEqual(bytes);
  });
});

describe("the pool and compiled code", () => {
  it("has a bundle compiled in the background after its first load and runs that, not the source, on the next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-compiled-"));
    const pool = new SandboxPool({ threads: 1, compiledCodeDir: dir });
    try {
      const first = optionsFor(updateBundle(`return "first"`), { id: "com.example.first" });
      const second = optionsFor(updateBundle(`return "second"`), { id: "com.example.second" });
      const sandbox = await pool.create(first, recorder());
      await sandbox.load();
      await expect(sandbox.invoke(UPDATE)).resolves.toBe("first");
      await sandbox.dispose();
      // compiled apart once the thread is quiet, then written
      const stored = `com.example.first.${CodeCache.key(first.code, "dist/index.js")}.qjsc`;
      await expect.poll(() => readdirSync(dir), { timeout: 5000 }).toEqual([stored]);

      // Plant first's compiled form under second's key, in a fresh pool: second then runs
      // first's code. The cache folder is trusted; that is why it must be the host's own.
      const planted = join(dir, `com.example.second.${CodeCache.key(second.code, "dist/index.js")}.qjsc`);
      writeFileSync(planted, readFileSync(join(dir, stored)));
      const fresh = new SandboxPool({ threads: 1, compiledCodeDir: dir });
      try {
        const replaced = await fresh.create(second, recorder());
        await replaced.load();
        await expect(replaced.invoke(UPDATE)).resolves.toBe("first");
      } finally {
        await fresh.dispose();
      }
    } finally {
      await pool.dispose();
    }
  });

  it("compiles from source again when the stored form does not read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-compiled-"));
    const options = optionsFor(updateBundle(`return 7`), { id: "com.example.seven" });
    const garbage = Uint8Array.from({ length: 64 }, (_, i) => i);
    const stored = join(dir, `com.example.seven.${CodeCache.key(options.code, "dist/index.js")}.qjsc`);
    writeFileSync(stored, Buffer.concat([createHash("sha256").update(garbage).digest(), garbage]));
    const pool = new SandboxPool({ threads: 1, compiledCodeDir: dir });
    try {
      const sandbox = await pool.create(options, recorder());
      await sandbox.load();
      await expect(sandbox.invoke(UPDATE)).resolves.toBe(7);
      await sandbox.dispose();
      // the form made from source replaced the damaged one
      await expect.poll(() => readFileSync(stored).length, { timeout: 5000 }).not.toBe(32 + garbage.length);
    } finally {
      await pool.dispose();
    }
  });
});
