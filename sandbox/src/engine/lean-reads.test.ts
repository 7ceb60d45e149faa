/**
 * The lean reads (lean-reads.ts) in a bare QuickJS-ng context: they answer what the stock calls
 * answer, and free what they read (the context's dispose asserts that every guest object was freed).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { baseVariant as variant } from "./instance.js";
import { isGuestString, readsLean, runPendingJobs } from "./lean-reads.js";

/** What `code` evaluates to in `context`, its handle freed. */
function valueOf(context: QuickJSContext, code: string): unknown {
  const handle = context.unwrapResult(context.evalCode(code));
  const value = context.dump(handle);
  handle.dispose();
  return value;
}

describe("lean reads", () => {
  let module: QuickJSWASMModule;
  beforeAll(async () => {
    module = await newQuickJSWASMModuleFromVariant(variant);
  });

  it("isGuestString says what typeof says, for every kind of value", () => {
    const context = module.newContext();
    // quickjs-emscripten-core's internals are as this version expects: no silent fallback.
    expect(readsLean(context)).toBe(true);
    const values = [
      `"text"`,
      `""`,
      `Symbol("s")`,
      `1`,
      `1n`,
      `true`,
      `null`,
      `undefined`,
      `({})`,
      `[]`,
      `(() => 1)`,
      `new String("boxed")`,
    ];
    for (const code of values) {
      const handle = context.unwrapResult(context.evalCode(code));
      expect([code, isGuestString(context, handle)]).toEqual([code, context.typeof(handle) === "string"]);
      handle.dispose();
    }
    context.dispose();
  });

  it("runPendingJobs runs every job queued, and answers undefined when none threw", () => {
    const runtime = module.newRuntime();
    const context = runtime.newContext();
    context
      .unwrapResult(
        context.evalCode(
          `globalThis.seen = []; for (let i = 0; i < 3; i++) Promise.resolve(i).then((v) => seen.push(v));`,
        ),
      )
      .dispose();
    expect(runtime.hasPendingJob()).toBe(true);
    expect(runPendingJobs(runtime, context)).toBeUndefined();
    expect(runtime.hasPendingJob()).toBe(false);
    expect(valueOf(context, `seen`)).toEqual([0, 1, 2]);
    expect(runPendingJobs(runtime, context)).toBeUndefined(); // nothing queued: nothing run
    context.dispose();
    runtime.dispose();
  });

  it("runPendingJobs stops at a job that throws and hands back what it threw; later jobs stay queued", () => {
    const runtime = module.newRuntime();
    const context = runtime.newContext();
    let interrupt = false;
    runtime.setInterruptHandler(() => interrupt);
    context
      .unwrapResult(
        context.evalCode(
          `globalThis.seen = []; Promise.resolve().then(() => { for (;;) {} }); Promise.resolve().then(() => seen.push("after"));`,
        ),
      )
      .dispose();
    interrupt = true; // the endless job is interrupted: an uncatchable error escapes the job queue
    const thrown = runPendingJobs(runtime, context);
    expect(thrown).toBeDefined();
    expect(context.dump(thrown!)).toMatchObject({ name: "InternalError", message: "interrupted" });
    thrown!.dispose();
    interrupt = false;
    expect(runtime.hasPendingJob()).toBe(true);
    expect(runPendingJobs(runtime, context)).toBeUndefined();
    expect(valueOf(context, `seen`)).toEqual(["after"]);
    context.dispose();
    runtime.dispose();
  });
});
