/**
 * The prelude's compiled form, made once per thread: every later instance (the warm-up, each
 * spare, each sandbox created in a burst) reads it in ~2 ms instead of parsing the prelude's
 * 66 KB for ~8–12 ms. Made in a throwaway instance, as compile-apart.ts makes a bundle's, so no
 * instance a guest uses ever held the serializer's buffers. Only ever our own prelude's bytes:
 * compiled code is trusted input.
 */
import { createInstance } from "../instance.js";
import { DEFAULT_LIMITS, IN_THREAD_STACK_BYTES } from "../../limits.js";
import { preludeSource } from "../prelude.js";

/** The prelude's file name in stacks, parsed or compiled. */
export const PRELUDE_FILENAME = "svc:prelude.js";

let compiled: Promise<Uint8Array | undefined> | undefined;

/**
 * The prelude's compiled bytes, or undefined when this engine cannot keep compiled code (the
 * prelude is then parsed in each instance, as before).
 *
 * @example const bytes = await compiledPrelude(); // then CompiledScripts.fromBytes(bytes)
 */
export function compiledPrelude(): Promise<Uint8Array | undefined> {
  compiled ??= compile().catch(() => undefined);
  return compiled;
}

async function compile(): Promise<Uint8Array | undefined> {
  const [prelude, { runtime, context, scripts }] = await Promise.all([
    preludeSource(),
    createInstance({ ...DEFAULT_LIMITS, stackBytes: IN_THREAD_STACK_BYTES }),
  ]);
  try {
    if (!scripts) return undefined;
    const script = scripts.compile(prelude, PRELUDE_FILENAME);
    if (script.error) {
      script.error.dispose();
      return undefined;
    }
    try {
      return scripts.toBytes(script.value);
    } finally {
      script.value.dispose();
    }
  } finally {
    try {
      context.dispose();
      runtime.dispose();
    } catch {
      // nothing of it is used again
    }
  }
}
