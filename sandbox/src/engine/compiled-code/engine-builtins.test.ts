/**
 * The engine patch leaves every built-in working: the reader it shares with the engine's own
 * built-ins written in JavaScript (`Array.fromAsync`, `Iterator.zip`, `Iterator.zipKeyed` …,
 * read from compiled code on first touch) is untouched. Every property reachable from the
 * global object is read in a patched instance and in the published, unpatched build, and each
 * must give the same outcome.
 */
import { afterAll, describe, expect, it } from "vitest";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import type { QuickJSContext, QuickJSSyncVariant } from "quickjs-emscripten-core";
import variantModule from "@jitl/quickjs-ng-wasmfile-release-sync";
import { createInstance } from "../instance.js";
import { DEFAULT_LIMITS } from "../../limits.js";
import { Sandbox } from "../../sandbox.js";
import { UPDATE, optionsFor, recorder } from "../../sandbox.fixtures.js";

const publishedVariant = ((variantModule as { default?: QuickJSSyncVariant }).default ??
  variantModule) as QuickJSSyncVariant;

/** Reads every own property (getters included) of everything reachable from globalThis, prototypes too. */
const TOUCH_EVERYTHING = `(() => {
  const seen = new Set();
  const failures = {};
  let touched = 0;
  const queue = [[globalThis, "globalThis"]];
  while (queue.length) {
    const [object, path] = queue.shift();
    if (seen.has(object)) continue;
    seen.add(object);
    for (const key of Reflect.ownKeys(object)) {
      const name = path + "." + String(key);
      let value;
      try {
        value = object[key];
        touched++;
      } catch (error) {
        failures[name] = String(error);
        continue;
      }
      if ((typeof value === "object" && value !== null) || typeof value === "function") queue.push([value, name]);
    }
    const prototype = Object.getPrototypeOf(object);
    if (prototype) queue.push([prototype, path + ".[[Prototype]]"]);
  }
  return JSON.stringify({ touched, failures });
})()`;

/** The built-ins the engine writes in JavaScript, used for real. */
const USE_SCRIPTED_BUILTINS = `(async () => JSON.stringify([
  await Array.fromAsync([1, Promise.resolve(2), 3]),
  [...Iterator.zip([[1, 2], ["a", "b"]])],
  [...Iterator.zipKeyed({ n: [1, 2], s: ["a", "b"] })],
  [...Iterator.concat([1], [2, 3])],
]))()`;

async function settle(context: QuickJSContext, code: string, drain: () => void): Promise<string> {
  const promise = context.unwrapResult(context.evalCode(code));
  const settled = context.resolvePromise(promise);
  promise.dispose();
  drain();
  return stringOf(context, context.unwrapResult(await settled));
}

function stringOf(context: QuickJSContext, handle: import("quickjs-emscripten-core").QuickJSHandle): string {
  return handle.consume((value) => context.getString(value));
}

const disposers: (() => void)[] = [];
afterAll(() => disposers.forEach((dispose) => dispose()));

async function patchedContext() {
  const instance = await createInstance(DEFAULT_LIMITS);
  expect(instance.scripts, "the pinned build is patched").toBeDefined();
  disposers.push(() => (instance.context.dispose(), instance.runtime.dispose()));
  return instance;
}

async function publishedContext() {
  const runtime = (await newQuickJSWASMModuleFromVariant(publishedVariant)).newRuntime();
  const context = runtime.newContext();
  disposers.push(() => (context.dispose(), runtime.dispose()));
  return { runtime, context };
}

describe("built-ins in a patched instance", () => {
  it("reads every global, every prototype method and every getter with the same outcome as the published build", async () => {
    const patched = await patchedContext();
    const published = await publishedContext();
    const read = (context: QuickJSContext) =>
      JSON.parse(stringOf(context, context.unwrapResult(context.evalCode(TOUCH_EVERYTHING)))) as {
        touched: number;
        failures: Record<string, string>;
      };
    const mine = read(patched.context);
    const theirs = read(published.context);
    expect(mine.touched).toBeGreaterThan(1000);
    expect(mine.touched).toBe(theirs.touched);
    expect(mine.failures).toEqual(theirs.failures);
    expect(Object.values(mine.failures).filter((message) => !message.startsWith("TypeError"))).toEqual([]);
  });

  it("runs Array.fromAsync, Iterator.zip, Iterator.zipKeyed and Iterator.concat", async () => {
    const { context, runtime } = await patchedContext();
    const result = await settle(context, USE_SCRIPTED_BUILTINS, () => runtime.executePendingJobs());
    expect(JSON.parse(result)).toEqual([
      [1, 2, 3],
      [
        [1, "a"],
        [2, "b"],
      ],
      [
        { n: 1, s: "a" },
        { n: 2, s: "b" },
      ],
      [1, 2, 3],
    ]);
  });

  it("runs them from compiled code read back in another instance", async () => {
    const compiler = await patchedContext();
    const compiled = compiler.scripts!.compile(USE_SCRIPTED_BUILTINS, "dist/index.js");
    const bytes = compiled.value!.consume((value) => compiler.scripts!.toBytes(value))!;
    const reader = await patchedContext();
    const read = reader.scripts!.fromBytes(bytes)!;
    const ran = read.consume((value) => reader.scripts!.run(value))!;
    const promise = ran.value!;
    const settled = reader.context.resolvePromise(promise);
    promise.dispose();
    reader.runtime.executePendingJobs();
    const text = stringOf(reader.context, reader.context.unwrapResult(await settled));
    expect(JSON.parse(text)[1]).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });
});

describe("built-ins and the prelude's globals in a sandbox", () => {
  it("reads everything reachable from the global object, loading every lazy part, with only TypeErrors from receivers", async () => {
    const sandbox = await Sandbox.create(
      optionsFor(`module.exports = { update: () => JSON.parse(${TOUCH_EVERYTHING}) };`),
      recorder(),
    );
    disposers.push(() => void sandbox.dispose());
    await sandbox.load();
    const { touched, failures } = (await sandbox.invoke(UPDATE)) as {
      touched: number;
      failures: Record<string, string>;
    };
    expect(touched).toBeGreaterThan(1500);
    expect(Object.entries(failures).filter(([, message]) => !message.startsWith("TypeError"))).toEqual([]);
    // the lazy parts were loaded by the walk, and work
    expect(
      Object.keys(failures).filter(
        (path) => /^globalThis\.(Intl|crypto|URL|fetch|TextEncoder)\b/.test(path) && !path.includes("prototype"),
      ),
    ).toEqual([]);
  });
});
