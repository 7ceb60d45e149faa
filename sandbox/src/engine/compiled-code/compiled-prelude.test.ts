/**
 * The prelude's compiled form: made once per thread, it gives an instance the same prelude as
 * parsing does (same entry points, same heap, same file name in stacks), and bytes that do not
 * read fall back to parsing.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../limits.js";
import { createInstance, type QuickJSInstance } from "../instance.js";
import { preludeSource } from "../prelude.js";
import { runPrelude } from "../prepared-instance.js";
import { PRELUDE_FILENAME, compiledPrelude } from "./compiled-prelude.js";

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
  return runtime.computeMemoryUsage().consume((usage) => context.getProp(usage, "memory_used_size").consume((n) => context.getNumber(n)));
}

describe("the prelude's compiled form", () => {
  it("is made once per thread, and an instance run from it matches one that parsed the prelude", async () => {
    const bytes = await compiledPrelude();
    expect(bytes?.length).toBeGreaterThan(10_000);
    expect(await compiledPrelude()).toBe(bytes);
    const compiled = await instanceWithPrelude(bytes);
    const parsed = await instanceWithPrelude(undefined);
    const seen = describePrelude(compiled);
    expect(seen).toEqual(describePrelude(parsed));
    expect(seen).toMatchObject({ entry: ["dispatch", "init", "invoke", "load"], where: expect.stringContaining(PRELUDE_FILENAME) });
    expect(heapUsed(compiled)).toBe(heapUsed(parsed));
  });

  it("bytes that do not read are ignored: the prelude is parsed instead", async () => {
    const bytes = await compiledPrelude();
    const broken = Uint8Array.from(bytes!.subarray(0, 100));
    const instance = await instanceWithPrelude(broken);
    expect(describePrelude(instance)).toMatchObject({ entry: ["dispatch", "init", "invoke", "load"] });
  });
});
