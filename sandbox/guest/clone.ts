/**
 * `structuredClone`: copies plain data the way the HTML structured clone does (objects, arrays,
 * Date, RegExp, Map, Set, ArrayBuffer and views, Error, primitive wrappers; cycles and shared
 * references kept); functions, symbols and other platform objects throw DataCloneError.
 * A lazy part of the prelude.
 */

function dataCloneError(what: string): Error {
  const error = new Error(`${what} could not be cloned.`);
  error.name = "DataCloneError";
  return error;
}

function cloneValue(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value === "function") throw dataCloneError(String(value).slice(0, 60));
  if (typeof value === "symbol") throw dataCloneError(value.toString());
  if (typeof value !== "object" || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  let out: any;
  if (Array.isArray(value)) {
    out = new Array(value.length);
    seen.set(value, out);
    for (const key of Object.keys(value)) out[key] = cloneValue((value as any)[key], seen);
    return out;
  }
  if (value instanceof Date) out = new Date(value.getTime());
  else if (value instanceof RegExp) out = new RegExp(value.source, value.flags);
  else if (value instanceof ArrayBuffer) out = value.slice(0);
  else if (ArrayBuffer.isView(value)) {
    const buffer = cloneValue(value.buffer, seen) as ArrayBuffer;
    const Ctor = value.constructor as new (b: ArrayBuffer, o: number, l: number) => unknown;
    const length = value instanceof DataView ? value.byteLength : (value as unknown as { length: number }).length;
    out = new Ctor(buffer, value.byteOffset, length);
  } else if (value instanceof Map) {
    out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(cloneValue(k, seen), cloneValue(v, seen));
    return out;
  } else if (value instanceof Set) {
    out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(cloneValue(v, seen));
    return out;
  } else if (value instanceof Error) {
    out = new Error(String(value.message));
    out.name = value.name;
    if (value.stack !== undefined) out.stack = String(value.stack);
  } else if (value instanceof Boolean || value instanceof Number || value instanceof String) {
    out = Object(value.valueOf());
  } else if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) {
    throw dataCloneError(Object.prototype.toString.call(value));
  } else {
    out = {};
    seen.set(value, out);
    for (const key of Object.keys(value)) out[key] = cloneValue((value as any)[key], seen);
    return out;
  }
  seen.set(value, out);
  return out;
}

export const GLOBALS = ["structuredClone"];

export function install(): void {
  (globalThis as Record<string, unknown>).structuredClone = (value: unknown) => cloneValue(value, new Map());
}
