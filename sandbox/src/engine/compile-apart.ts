/**
 * Makes a bundle's compiled form for the code cache in a throwaway instance: the serializer's
 * buffers (several times the bundle) never touch the extension's own linear memory, and the
 * whole instance is freed afterwards.
 */
import { createInstance } from "./instance.js";
import { DEFAULT_LIMITS, IN_THREAD_STACK_BYTES } from "../limits.js";
import { CodeCache, writeCompiledFile } from "./compiled-code/code-cache.js";
import { bundleScript } from "./compiled-code/compiled-scripts.js";

/**
 * The compiled form of `code`, or undefined when it does not compile or the engine cannot keep
 * compiled code.
 *
 * @example const bytes = await compileApart(code, "dist/index.js");
 */
export function compileApart(code: string, filename: string): Promise<Uint8Array | undefined> {
  return compileScriptApart(bundleScript(code), filename);
}

/**
 * The compiled form of a global script (a bundle's `bundleScript`, the prelude), made in a
 * throwaway instance; undefined when it does not compile or the engine cannot keep compiled code.
 *
 * @example const bytes = await compileScriptApart(prelude, "svc:prelude.js");
 */
export async function compileScriptApart(script: string, filename: string): Promise<Uint8Array | undefined> {
  // Also run in the protocol thread (svc-host install): its native stack allows the smaller QuickJS stack.
  const { runtime, context, scripts } = await createInstance({ ...DEFAULT_LIMITS, stackBytes: IN_THREAD_STACK_BYTES });
  try {
    if (!scripts) return undefined;
    const compiled = scripts.compile(script, filename);
    if (compiled.error) {
      compiled.error.dispose();
      return undefined;
    }
    try {
      return scripts.toBytes(compiled.value);
    } finally {
      compiled.value.dispose();
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

/**
 * Compiles a bundle into a code cache folder ahead of its first load (svc-host install does,
 * so even an extension's first start skips the parser). Parses only: nothing of the bundle runs.
 * True when a compiled form was written.
 *
 * @example await precompileBundle({ id: "com.example.ci", code, dir: "/…/Data/.compiled-code" });
 */
export async function precompileBundle(options: {
  id: string;
  code: string;
  dir: string;
  filename?: string;
}): Promise<boolean> {
  const filename = options.filename ?? "dist/index.js";
  const file = new CodeCache({ dir: options.dir }).fileFor(options.id, CodeCache.key(options.code, filename));
  const bytes = file && (await compileApart(options.code, filename));
  if (!file || !bytes) return false;
  await writeCompiledFile(file, options.id, bytes);
  return true;
}
