/**
 * Lean host functions (lean-function.ts) in a bare QuickJS-ng context: they answer and throw like
 * stock ones, stock functions beside them still work, and nothing is left alive (the context's
 * dispose asserts that every guest object was freed).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { baseVariant as variant } from "./instance.js";
import { callLean, newLeanFunction, takesLeanPath } from "./lean-function.js";

describe("lean host functions", () => {
  let module: QuickJSWASMModule;
  beforeAll(async () => {
    module = await newQuickJSWASMModuleFromVariant(variant);
  });

  /** Runs `code` with `define` having set up globals; returns what it evaluated to, or what it threw. */
  const run = (define: (context: QuickJSContext) => void, code: string): unknown => {
    const context = module.newContext();
    define(context);
    const result = context.evalCode(code);
    const value = result.error ? { thrown: context.dump(result.error) } : context.dump(result.value);
    (result.error ?? result.value).dispose();
    context.dispose();
    return value;
  };
  const defineGlobal = (context: QuickJSContext, name: string, fn: ReturnType<typeof newLeanFunction>) => {
    context.setProp(context.global, name, fn);
    fn.dispose();
  };

  it("reads its borrowed arguments and returns a new value, many times over", () => {
    const joined = run((context) => {
      const join = newLeanFunction(context, "join", ([a, b]) =>
        context.newString(`${context.getString(a)}+${context.getString(b)}`),
      );
      defineGlobal(context, "join", join);
      // quickjs-emscripten-core's internals are as this version expects: no silent fallback.
      expect(takesLeanPath(context)).toBe(true);
    }, `let last; for (let i = 0; i < 10000; i++) last = join("a" + i, "b"); [last, join.name, typeof join]`);
    expect(joined).toEqual(["a9999+b", "join", "function"]);
  });

  it("makes the guest call throw the error it returns, or one it throws, catchably", () => {
    const caught = run(
      (context) => {
        defineGlobal(
          context,
          "refuse",
          newLeanFunction(context, "refuse", () => ({
            error: context.newError({ name: "RangeError", message: "no" }),
          })),
        );
        defineGlobal(
          context,
          "explode",
          newLeanFunction(context, "explode", () => {
            throw new Error("host bug");
          }),
        );
      },
      `const out = [];
        for (const f of [refuse, explode]) { try { f(); } catch (e) { out.push(e.name + ": " + e.message); } }
        out`,
    );
    expect(caught).toEqual(["RangeError: no", "Error: host bug"]);
  });

  it("leaves stock host functions in the same context on their own path", () => {
    const both = run((context) => {
      defineGlobal(
        context,
        "lean",
        newLeanFunction(context, "lean", ([n]) => context.newNumber(context.getNumber(n) * 2)),
      );
      const stock = context.newFunction("stock", (n) => context.newNumber(context.getNumber(n) + 1));
      context.setProp(context.global, "stock", stock);
      stock.dispose();
    }, `[lean(stock(1)), stock(lean(1))]`);
    expect(both).toEqual([4, 3]);
  });

  it("calls a guest function with arguments, also after the memory grew, and hands back what it threw", () => {
    const context = module.newContext();
    const made = context.evalCode(
      `globalThis.seen = []; globalThis.big = []; (kind, text) => { if (kind === "throw") throw new TypeError(text); seen.push(kind + ":" + text); big.push(new Uint8Array(4 << 20)); }`,
    );
    const fn = context.unwrapResult(made);
    const call = (kind: string, text: string) => {
      const args = [context.newString(kind), context.newString(text)];
      const thrown = callLean(context, fn, args);
      for (const arg of args) arg.dispose();
      return thrown;
    };
    for (let i = 0; i < 8; i++) expect(call("reply", String(i))).toBeUndefined(); // 32 MB: the memory grows
    const thrown = call("throw", "bad");
    expect(thrown && context.dump(thrown)).toMatchObject({ name: "TypeError", message: "bad" });
    thrown?.dispose();
    const seen = context.unwrapResult(context.evalCode("seen.join()"));
    expect(context.getString(seen)).toBe("reply:0,reply:1,reply:2,reply:3,reply:4,reply:5,reply:6,reply:7");
    seen.dispose();
    fn.dispose();
    context.dispose();
  });
});
