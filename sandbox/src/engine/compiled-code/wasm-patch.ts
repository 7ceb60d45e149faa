/**
 * Teaches the QuickJS-ng `.wasm` to keep compiled code, so an extension compiled once loads
 * again without QuickJS parsing its bundle (the bulk of a cold start: ~26 ms of the ~32 ms it
 * takes to load a 117 KB bundle here; reading the compiled form back takes ~5 ms).
 *
 * quickjs-emscripten 0.32 ships the engine's serializer (`QTS_bjson_encode`/`_decode`) with
 * compiled code refused both ways and no export that runs compiled code. Four changes, made
 * in memory to one exact build (checked by its SHA-256; any other build is used unchanged and
 * extensions are simply compiled every time):
 *
 * 1. `QTS_bjson_encode` (func 1162, JS_WriteObject inlined): the writer's flag bytes are set by
 *    one `i32.const 0x01010000` (allow_reference, allow_source); it becomes `0x01010001`, which
 *    also sets allow_bytecode.
 * 2. Same function: the writer numbers atoms from `first_atom`, which the build constant-folds
 *    to 1 (every atom written by its text, as for plain values). Compiled code must use the
 *    numbering the reader uses for it, JS_ATOM_END (229: the engine's own atoms by number, as
 *    `qjsc` writes them). The two stores `first_atom = 1` (i32, offset 48) and
 *    `allow_debug = 1` (i8, offset 44) become one `i64.store offset=44` of `229 << 32 | 1`
 *    (bytes 45–47 are padding, zeroed just before by `memory.fill`), padded with two `nop`.
 *    The reader (func 815, shared with the engine's own built-ins written in JavaScript such
 *    as `Array.fromAsync` and `Iterator.zip`) is left exactly as it is.
 * 3. `QTS_bjson_decode` (func 1159): `JS_ReadObject(ctx, buf, len, 0)` becomes `…, 1)`:
 *    JS_READ_OBJ_BYTECODE, which also makes the reader number atoms from JS_ATOM_END.
 * 4. A new export, `svc_eval_function(ctx, JSValue*) -> JSValue*`: if the value is compiled
 *    code (tag JS_TAG_FUNCTION_BYTECODE), it takes a reference and runs it with
 *    `JS_EvalFunction` (func 583, as QTS_Eval does for modules), boxing the result with the
 *    interface's `jsvalue_to_heap` (func 56); any other value gives 0 and nothing runs.
 *
 * Check it with `wasm2wat`: the function numbers and bytes below are the ones it shows for the
 * pinned build. Why this is safe: the serializer is only ever called by the sandbox (guests
 * have no way to reach it), and compiled code is only read back from the host's own cache,
 * made by the host from the bundle's source (see code-cache.ts).
 */
import { createHash } from "node:crypto";

/** SHA-256 of @jitl/quickjs-ng-wasmfile-release-sync 0.32.0's `emscripten-module.wasm`. */
const KNOWN_BUILD = "b56fe5094b8751c47b8c32fb5ed4d75afe2dbb43412d3d983ac5d1156af456da";

/** Names the engine and this patch: compiled code made by one is never read by another. */
export const COMPILED_CODE_ENGINE = `quickjs-ng-0.32.0-${KNOWN_BUILD.slice(0, 12)}-svc2`;

/** The export added by the patch. */
export const EVAL_FUNCTION_EXPORT = "svc_eval_function";

const FUNCTION_IMPORTS = 20;
const DEFINED_FUNCTIONS = 1388;
const TYPE_I32_I32_TO_I32 = 3;
const JS_EVAL_FUNCTION = 583;
const JSVALUE_TO_HEAP = 56;
const JS_TAG_FUNCTION_BYTECODE = -2n;

/** In-place edits: where, the bytes the pinned build has there, what replaces them (same length). */
const EDITS = [
  {
    what: "encode: allow_bytecode",
    at: 383273,
    from: [0x41, 0x80, 0x80, 0x84, 0x08],
    to: [0x41, 0x81, 0x80, 0x84, 0x08],
  },
  {
    what: "decode: JS_READ_OBJ_BYTECODE",
    at: 383176,
    from: [0x41, 0x00, 0x10, 0xaf, 0x06],
    to: [0x41, 0x01, 0x10, 0xaf, 0x06],
  },
  {
    what: "encode: first_atom JS_ATOM_END",
    at: 383257,
    // local.get 2, i32.const 1, i32.store offset=48, local.get 2, i32.const 1, i32.store8 offset=44
    from: [0x20, 0x02, 0x41, 0x01, 0x36, 0x02, 0x30, 0x20, 0x02, 0x41, 0x01, 0x3a, 0x00, 0x2c],
    // local.get 2, i64.const 229 << 32 | 1, i64.store offset=44, nop, nop
    to: [0x20, 0x02, 0x42, ...sleb((229n << 32n) | 1n), 0x37, 0x02, 0x2c, 0x01, 0x01],
  },
];

/**
 * The patched build, or `undefined` when `wasm` is not the pinned build (then it is used as is).
 *
 * @example const patched = patchForCompiledCode(await readFile(wasmPath)) ?? original;
 */
export function patchForCompiledCode(wasm: Uint8Array): Uint8Array | undefined {
  if (createHash("sha256").update(wasm).digest("hex") !== KNOWN_BUILD) return undefined;
  const bytes = Uint8Array.from(wasm);
  for (const edit of EDITS) {
    const found = bytes.subarray(edit.at, edit.at + edit.from.length);
    if (!edit.from.every((byte, i) => found[i] === byte)) throw new Error(`wasm patch: ${edit.what} not found`);
    bytes.set(edit.to, edit.at);
  }
  return appendFunction(bytes);
}

/** Adds `svc_eval_function` to the function, export and code sections. */
function appendFunction(bytes: Uint8Array): Uint8Array {
  const index = FUNCTION_IMPORTS + DEFINED_FUNCTIONS;
  const name = new TextEncoder().encode(EVAL_FUNCTION_EXPORT);
  const out: Uint8Array[] = [bytes.subarray(0, 8)];
  for (const section of readSections(bytes)) {
    let body = section.body;
    if (section.id === SECTION.function) body = appendToVector(body, [TYPE_I32_I32_TO_I32]);
    if (section.id === SECTION.export)
      body = appendToVector(body, [...uleb(name.length), ...name, 0x00, ...uleb(index)]);
    if (section.id === SECTION.code)
      body = appendToVector(body, [...uleb(EVAL_FUNCTION_BODY.length), ...EVAL_FUNCTION_BODY]);
    out.push(Uint8Array.of(section.id, ...uleb(body.length)), body);
  }
  return concat(out);
}

/** (param $ctx i32) (param $ptr i32) (result i32) (local $value i64) (local $object i32) */
const EVAL_FUNCTION_BODY = [
  ...[0x02, 0x01, 0x7e, 0x01, 0x7f], // locals: 1 × i64, 1 × i32
  ...[0x20, 0x01, 0x29, 0x03, 0x00, 0x22, 0x02], // local.get $ptr, i64.load, local.tee $value
  ...[0x42, 0x20, 0x87], // i64.const 32, i64.shr_s: the tag
  ...[0x42, ...sleb(JS_TAG_FUNCTION_BYTECODE), 0x52], // i64.const tag, i64.ne
  ...[0x04, 0x40, 0x41, 0x00, 0x0f, 0x0b], // if: i32.const 0, return, end
  ...[0x20, 0x02, 0xa7, 0x22, 0x03], // local.get $value, i32.wrap_i64, local.tee $object
  ...[0x20, 0x03, 0x28, 0x02, 0x00, 0x41, 0x01, 0x6a, 0x36, 0x02, 0x00], // ref_count += 1
  ...[0x20, 0x00, 0x20, 0x02, 0x10, ...uleb(JS_EVAL_FUNCTION)], // JS_EvalFunction(ctx, value)
  ...[0x10, ...uleb(JSVALUE_TO_HEAP), 0x0b], // jsvalue_to_heap(result), end
];

const SECTION = { function: 3, export: 7, code: 10 } as const;

function readSections(bytes: Uint8Array): { id: number; body: Uint8Array }[] {
  const sections: { id: number; body: Uint8Array }[] = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at]!;
    const [size, start] = readUleb(bytes, at + 1);
    sections.push({ id, body: bytes.subarray(start, start + size) });
    at = start + size;
  }
  return sections;
}

function appendToVector(vector: Uint8Array, entry: number[]): Uint8Array {
  const [count, rest] = readUleb(vector, 0);
  return concat([Uint8Array.from(uleb(count + 1)), vector.subarray(rest), Uint8Array.from(entry)]);
}

function readUleb(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(value & 0x7fn);
    value >>= 7n;
    const done = (value === 0n && !(byte & 0x40)) || (value === -1n && byte & 0x40);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
