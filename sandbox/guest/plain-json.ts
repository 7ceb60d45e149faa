/**
 * JSON text made without the engine's `JSON.stringify` for objects. QuickJS's stringify keeps its
 * own bookkeeping in ordinary arrays, so a guest's setter on `Array.prototype[0]` (or
 * `Object.prototype[0]`) runs inside it and can make every call through the bridge throw, and
 * with them the call that reports the outcome: the sandbox would never answer again. The bridge
 * falls back to this encoder when such a setter is present; it uses only what it captured when
 * the prelude started, writes no array, and gives the same text as `JSON.stringify` for what
 * crosses the bridge (plain data, `toJSON`, boxed primitives; deeper than `maxDepth` is refused).
 */
const stringify = JSON.stringify;
const keysOf = Object.keys;
const isArray = Array.isArray;
const ownKeys = Reflect.ownKeys;
const isFiniteNumber = Number.isFinite;
const callOf = Function.prototype.call.bind(Function.prototype.call) as (
  fn: Function,
  self: unknown,
  ...args: unknown[]
) => any;
const numberValue = Number.prototype.valueOf;
const stringValue = String.prototype.valueOf;
const booleanValue = Boolean.prototype.valueOf;
const NumberBox = Number;
const StringBox = String;
const BooleanBox = Boolean;
const arrayPrototype = Array.prototype;
const objectPrototype = Object.prototype;

/** True when `Array.prototype` or `Object.prototype` has an own property named like an index. */
export function indexPropertiesTampered(): boolean {
  return hasIndexKey(arrayPrototype) || hasIndexKey(objectPrototype);
}

function hasIndexKey(target: object): boolean {
  const keys = ownKeys(target);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === "string" && StringBox(+key >>> 0) === key) return true;
  }
  return false;
}

/** A primitive's JSON text, or undefined (the engine's stringify of a primitive keeps no list). */
function primitive(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "number") return isFiniteNumber(value) ? StringBox(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return stringify(value);
  if (typeof value === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
  return undefined;
}

/**
 * @example plainJson({ a: [1, "x"] }, 64, "the arguments") // '{"a":[1,"x"]}'
 */
export function plainJson(value: unknown, maxDepth: number, what: string): string | undefined {
  function encode(key: string, item: unknown, depth: number): string | undefined {
    if ((typeof item === "object" && item !== null) || typeof item === "bigint") {
      const toJSON = (item as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") item = callOf(toJSON, item, key);
    }
    if (typeof item === "object" && item !== null) {
      if (item instanceof NumberBox) item = +callOf(numberValue, item);
      else if (item instanceof StringBox) item = callOf(stringValue, item);
      else if (item instanceof BooleanBox) item = callOf(booleanValue, item);
    }
    if (typeof item !== "object" || item === null) return primitive(item);
    if (depth >= maxDepth) throw new RangeError(`${what} are nested more than ${maxDepth} levels deep`);
    let out = "";
    if (isArray(item)) {
      const length = (item as unknown[]).length;
      for (let i = 0; i < length; i++) {
        out += `${i ? "," : ""}${encode(StringBox(i), (item as unknown[])[i], depth + 1) ?? "null"}`;
      }
      return `[${out}]`;
    }
    const keys = keysOf(item);
    for (let i = 0; i < keys.length; i++) {
      const text = encode(keys[i], (item as Record<string, unknown>)[keys[i]], depth + 1);
      if (text !== undefined) out += `${out ? "," : ""}${stringify(keys[i])}:${text}`;
    }
    return `{${out}}`;
  }
  return encode("", value, 0);
}
