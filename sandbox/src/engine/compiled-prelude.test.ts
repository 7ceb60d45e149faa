/**
 * The prelude's compiled form: written by the build, read only when it was made by this engine
 * from this prelude and is whole; it gives an instance the same prelude as parsing does (same
 * entry points, same heap, same file name in stacks), and bytes that do not read fall back to
 * parsing.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../limits.js";
import { createInstance, type QuickJSInstance } from "./instance.js";
import { preludeSource } from "./prelude.js";
import { runPrelude } from "./prepared-instance.js";
import {
  PRELUDE_CODE_FILE,
  PRELUDE_FILENAME,
  compiledPrelude,
  readPreludeCode,
  writePreludeCode,
} from "./compiled-prelude.js";

const instances: QuickJSInstance[] = [];
async function instanceWithPrelude(bytes: Uint8Array | undefined): Promise<QuickJSInstance> {
  const instance = await createInstance(DEFAULT_LIMITS);
  instances.push(instance);
  const result = runPrelude(instance, await preludeSource(), bytes);
  if (result.error) throw new Error(`the prelude failed: ${JSON.stringify(instance.context.dump(result.error))}`);
  result.value.dispose();
  return instance;
}
afterAll(() => {
  for (const { context, runtime } of instances) {
    context.dispose();
    runtime.dispose();
  }
});

/** The prelude's entry points, and the file and line a prelude function reports in a stack. */
function describePrelude({ context }: QuickJSInstance): unknown {
  const result = context.evalCode(`(() => {
    const entry = globalThis.__svc_entry;
    let where = "";
    try { entry.invoke("not json"); } catch (error) { where = String(error.stack).split("\\n").find((line) => line.includes("${PRELUDE_FILENAME}")) ?? ""; }
    return { entry: Object.keys(entry).sort(), where: where.replace(/^\\s+/, "") };
  })()`);
  if (result.error) throw new Error("the probe failed");
  return result.value.consume((value) => context.dump(value));
}

function heapUsed({ context, runtime }: QuickJSInstance): number {
  return runtime
    .computeMemoryUsage()
    .consume((usage) => context.getProp(usage, "memory_used_size").consume((n) => context.getNumber(n)));
}

describe("the prelude's compiled form", () => {
  it("is read from the build's file, once per thread, and an instance run from it matches one that parsed the prelude", async () => {
    const bytes = await compiledPrelude();
    expect(bytes?.length).toBeGreaterThan(10_000);
    expect(await compiledPrelude()).toBe(bytes);
    expect(Buffer.from(bytes!).equals(Buffer.from(readPreludeCode(PRELUDE_CODE_FILE, await preludeSource())!))).toBe(
      true,
    );
    const compiled = await instanceWithPrelude(bytes);
    const parsed = await instanceWithPrelude(undefined);
    const seen = describePrelude(compiled);
    expect(seen).toEqual(describePrelude(parsed));
    expect(seen).toMatchObject({
      entry: ["dispatch", "init", "invoke", "load", "reply"],
      where: expect.stringContaining(PRELUDE_FILENAME),
    });
    expect(heapUsed(compiled)).toBe(heapUsed(parsed));
  });

  it("bytes that do not read are ignored: the prelude is parsed instead", async () => {
    const bytes = await compiledPrelude();
    const broken = Uint8Array.from(bytes!.subarray(0, 100));
    const instance = await instanceWithPrelude(broken);
    expect(describePrelude(instance)).toMatchObject({ entry: ["dispatch", "init", "invoke", "load", "reply"] });
  });

  it("a file made from another prelude, or damaged, is not read", async () => {
    const prelude = await preludeSource();
    const file = join(mkdtempSync(join(tmpdir(), "svc-prelude-")), "guest-prelude.qjsc");
    expect(await writePreludeCode(file)).toBe(true);
    expect(readPreludeCode(file, prelude)?.length).toBeGreaterThan(10_000);
    expect(readPreludeCode(file, `${prelude};`)).toBeUndefined();
    const content = readFileSync(file);
    content[content.length - 1] ^= 1;
    writeFileSync(file, content);
    expect(readPreludeCode(file, prelude)).toBeUndefined();
    writeFileSync(file, content.subarray(0, 64));
    expect(readPreludeCode(file, prelude)).toBeUndefined();
    expect(readPreludeCode(join(file, "missing"), prelude)).toBeUndefined();
  });
});
