/**
 * The guest's only way out. The host installs `__svc_call` and `__svc_callSync` on the global
 * object before anything runs; this module captures them and deletes the globals, so extension
 * code never sees them. Arguments leave as JSON text made here, by the guest's own
 * JSON.stringify (any toJSON, getter or Proxy runs in the guest, under its limits); the host
 * checks and parses them. Nothing here is a security boundary: the host checks every call.
 */
import type { AsyncOp, OpArgs, OpResult, SyncOp } from "../src/bridge/op-table.ts";
import { CHECKED_AT_CALL } from "../src/bridge/checked-at-call.ts";
import { makeError } from "./errors.ts";
import { nativeFromBase64, nativeToBase64 } from "./native-base64.ts";
import { indexPropertiesTampered, plainJson } from "./plain-json.ts";

type RawCall = (op: string, json: string) => number;
type RawCallSync = (op: string, json: string) => string | undefined;

/** The guest's bridge, typed by the one table of ops (src/bridge/op-table.ts). */
export interface Bridge {
  /**
   * Asynchronous op: settles when the host replies, with the reply's value, or what `shape` makes
   * of it (applied as the reply arrives: one promise per call, not two as with a `.then`).
   */
  call<Op extends AsyncOp>(op: Op, args: OpArgs<Op>): Promise<OpResult<Op>>;
  call<Op extends AsyncOp, T>(op: Op, args: OpArgs<Op>, shape: (value: OpResult<Op>) => T): Promise<T>;
  /**
   * `call` for an op whose arguments are `{[key]: value}` with a string value (`storage.get`,
   * `secrets.get` …): the JSON text is made here without the generic encoder, ~2 µs of the
   * interpreter fewer per call. A value that is not a string goes through `call` as it is.
   */
  callOne<Op extends AsyncOp, T>(
    op: Op,
    key: keyof OpArgs<Op> & string,
    value: unknown,
    shape: (value: OpResult<Op>) => T,
  ): Promise<T>;
  /** Synchronous op: the host answers at once, or throws. */
  callSync<Op extends SyncOp>(op: Op, args: OpArgs<Op>): OpResult<Op>;
  /** Receives host pushes of one kind (`ws` …), in the order the host made them. */
  on(kind: string, handler: (data: any) => void): void;
  /** Native base64 → bytes (native-base64.ts), when the host installed it. */
  bytesFromBase64?(text: string): Uint8Array;
  /** Native bytes → base64, when the host installed it. */
  bytesToBase64?(bytes: Uint8Array): string;
}

interface ErrorRecord {
  name: string;
  message: string;
}

const g = globalThis as Record<string, unknown>;
const rawCall = g.__svc_call as RawCall;
const rawCallSync = g.__svc_callSync as RawCallSync;
delete g.__svc_call;
delete g.__svc_callSync;

const stringify = JSON.stringify;
const parse = JSON.parse;
interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
  shape?: (value: any) => unknown;
  /**
   * Where the call was made: a refusal arrives later, on a stack that no longer holds the caller.
   * None for the ops checked in full at the call, whose refusals are thrown there.
   */
  origin: Error | undefined;
}

const pending = new Map<number, Waiter>();
const checkedAtCall = new Set<string>(CHECKED_AT_CALL);
const handlers = new Map<string, (data: unknown) => void>();

/** Deepest nesting the host accepts (src/limits.ts MAX_JSON_DEPTH). */
const MAX_DEPTH = 64;

/**
 * JSON text of `value`, refusing nesting deeper than the host accepts as soon as it is reached:
 * QuickJS's JSON.stringify slows down with the square of the depth, so a deep value must be
 * stopped early, not measured after.
 */
export function encodeJson(value: unknown, what: string): string {
  try {
    return engineJson(value, what);
  } catch (error) {
    // a guest's setter on Array.prototype[0] runs inside the engine's stringify (plain-json.ts)
    if (!indexPropertiesTampered()) throw error;
    const json = plainJson(value === undefined ? null : value, MAX_DEPTH, what);
    if (json === undefined) throw new TypeError(`${what} cannot be sent to the host`);
    return json;
  }
}

function engineJson(value: unknown, what: string): string {
  const flat = flatJson(value);
  if (flat !== undefined) return flat;
  const depths = new WeakMap<object, number>();
  const json = stringify(value === undefined ? null : value, function depthGuard(this: object, _key, item: unknown) {
    if (typeof item === "object" && item !== null) {
      const depth = (depths.get(this) ?? 0) + 1;
      if (depth > MAX_DEPTH) throw new RangeError(`${what} are nested more than ${MAX_DEPTH} levels deep`);
      depths.set(item, depth);
    }
    return item;
  });
  if (typeof json !== "string") throw new TypeError(`${what} cannot be sent to the host`);
  return json;
}

const objectPrototype = Object.prototype;
const prototypeOf = Object.getPrototypeOf;
const ownKeys = Object.keys;

/**
 * JSON text of a plain object whose own values are all primitives (most calls' arguments: `{key}`,
 * `{name, value}` …), made without the depth guard's replacer, a call per value: one level deep
 * cannot be too deep. Its values are read once into a copy, so a getter cannot answer a primitive
 * here and a deep object to `stringify`. Undefined for anything else.
 */
function flatJson(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || prototypeOf(value) !== objectPrototype) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of ownKeys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if ((typeof item === "object" && item !== null) || typeof item === "function" || key === "__proto__")
      return undefined;
    copy[key] = item;
  }
  return stringify(copy);
}

function encode(op: string, args: unknown): string {
  return encodeJson(args, `${op}: the arguments`);
}

/** Makes the async call with its arguments' JSON text. */
function send(op: AsyncOp, json: string, shape?: (value: any) => unknown): Promise<any> {
  try {
    const id = rawCall(op, json);
    // Id 0: Node answered null already (an emit taken ahead, src/engine/guest-calls.ts ANSWERED_NOW).
    if (id === 0) return Promise.resolve(shape ? shape(null) : null);
    const origin = checkedAtCall.has(op) ? undefined : new Error();
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject, shape, origin }));
  } catch (error) {
    return Promise.reject(error);
  }
}

export const bridge: Bridge = {
  call(op: AsyncOp, args: unknown, shape?: (value: any) => unknown): Promise<any> {
    let json: string;
    try {
      json = encode(op, args);
    } catch (error) {
      return Promise.reject(error);
    }
    return send(op, json, shape);
  },
  callOne(op: AsyncOp, key: string, value: unknown, shape: (value: any) => unknown): Promise<any> {
    // `key` is one of the prelude's own names (no character to escape).
    if (typeof value === "string") return send(op, `{"${key}":${stringify(value)}}`, shape);
    return bridge.call(op as never, { [key]: value } as never, shape);
  },
  callSync<Op extends SyncOp>(op: Op, args: OpArgs<Op>): OpResult<Op> {
    const out = rawCallSync(op, encode(op, args));
    return (out === undefined ? undefined : parse(out)) as OpResult<Op>;
  },
  on(kind, handler) {
    handlers.set(kind, handler);
  },
  bytesFromBase64: nativeFromBase64,
  bytesToBase64: nativeToBase64,
};

/**
 * Entry for a host reply to an async call: `json` is the value's JSON text (`ok`) or the error's
 * `{name, message}`. Its own entry, not a `dispatch` push: no envelope to parse per call.
 */
export function reply(id: number, ok: boolean, json: string): void {
  const waiter = pending.get(id);
  if (!waiter) return;
  pending.delete(id);
  if (ok) {
    try {
      const value = parse(json);
      waiter.resolve(waiter.shape ? waiter.shape(value) : value);
    } catch (error) {
      waiter.reject(error as Error);
    }
  } else {
    const error = parse(json) as Partial<ErrorRecord> | null;
    const refused = makeError(error?.name ?? "Error", error?.message ?? "host call failed");
    // The stack of the call, so the author's log points at the line that made it.
    const stack = waiter.origin?.stack;
    if (typeof stack === "string")
      Object.defineProperty(refused, "stack", { value: stack, writable: true, configurable: true });
    waiter.reject(refused);
  }
}

/** Entry for host pushes: `kind` names the handler, `json` its data. */
export function dispatch(kind: string, json: string): void {
  const handler = handlers.get(kind);
  if (handler) handler(parse(json));
}
