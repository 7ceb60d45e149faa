/**
 * The prelude's compiled form. `npm run build` writes it beside the prelude
 * (dist/guest-prelude.qjsc), so every instance (the warm-up, each spare, each sandbox created in
 * a burst) reads it in ~2 ms instead of parsing the prelude's 66 KB for ~8–12 ms (~70 ms for a
 * thread's first, while the engine is cold). The file names the engine and the exact prelude it
 * was made from, and carries the digest of its bytes: when any of them differs (the prelude
 * rebuilt alone, another engine), the thread compiles the prelude once itself instead, in a
 * throwaway instance as compile-apart.ts does a bundle, so no instance a guest uses ever held the
 * serializer's buffers. Only ever our own prelude's bytes: compiled code is trusted input.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { preludeSource } from "./prelude.js";
import { compileScriptApart } from "./compile-apart.js";
import { COMPILED_CODE_ENGINE } from "./compiled-code/wasm-patch.js";

/** The prelude's file name in stacks, parsed or compiled. */
export const PRELUDE_FILENAME = "svc:prelude.js";

/** Where the build keeps the compiled prelude (beside dist/guest-prelude.js). */
export const PRELUDE_CODE_FILE = fileURLToPath(new URL("../../dist/guest-prelude.qjsc", import.meta.url));

const DIGEST_BYTES = 32;

let compiled: Promise<Uint8Array | undefined> | undefined;

/**
 * The prelude's compiled bytes: the build's file when it fits this engine and prelude, else
 * compiled here once per thread; undefined when this engine cannot keep compiled code (the
 * prelude is then parsed in each instance).
 *
 * @example const bytes = await compiledPrelude(); // then CompiledScripts.fromBytes(bytes)
 */
export function compiledPrelude(): Promise<Uint8Array | undefined> {
  compiled ??= preludeSource()
    .then((prelude) => readPreludeCode(PRELUDE_CODE_FILE, prelude) ?? compilePrelude(prelude))
    .catch(() => undefined);
  return compiled;
}

/**
 * Compiles the prelude and writes it to `file` (atomically) for `compiledPrelude` to read; false
 * when this engine cannot keep compiled code. Run by `npm run build`.
 *
 * @example await writePreludeCode(); // dist/guest-prelude.qjsc
 */
export async function writePreludeCode(file = PRELUDE_CODE_FILE): Promise<boolean> {
  const prelude = await preludeSource();
  const bytes = await compilePrelude(prelude);
  if (!bytes) return false;
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temp, Buffer.concat([keyOf(prelude), sha256(bytes), bytes]));
  await rename(temp, file);
  return true;
}

/** The compiled prelude in `file`, if it was made by this engine from this prelude and is whole. */
export function readPreludeCode(file: string, prelude: string): Uint8Array | undefined {
  let content: Buffer;
  try {
    content = readFileSync(file);
  } catch {
    return undefined;
  }
  const bytes = content.subarray(2 * DIGEST_BYTES);
  const madeFor = content.subarray(0, DIGEST_BYTES);
  const digest = content.subarray(DIGEST_BYTES, 2 * DIGEST_BYTES);
  if (bytes.length === 0 || !madeFor.equals(keyOf(prelude)) || !digest.equals(sha256(bytes))) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

function keyOf(prelude: string): Buffer {
  return createHash("sha256").update(`${COMPILED_CODE_ENGINE}\0${PRELUDE_FILENAME}\0`).update(prelude).digest();
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}

function compilePrelude(prelude: string): Promise<Uint8Array | undefined> {
  return compileScriptApart(prelude, PRELUDE_FILENAME);
}
