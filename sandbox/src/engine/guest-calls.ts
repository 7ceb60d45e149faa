/**
 * The Node end of the bridge: installs `__svc_call` and `__svc_callSync` in a context (and the
 * native base64 pair of byte-codec.ts). Each
 * call's op name and JSON text are read as guest strings (type and length checked before the
 * text is copied out of the guest), parsed by parseGuestJson, and handed to the router. Sync
 * results go back as JSON text; async ones get a call id now and a `reply` push later.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { installByteCodec } from "./byte-codec.js";
import { parseGuestJson } from "./guest-json.js";
import { newLeanFunction } from "./lean-function.js";
import { isGuestString } from "./lean-reads.js";
import { MAX_CALL_JSON_CHARS, MAX_CALLS_IN_FLIGHT, MAX_CHARS_IN_FLIGHT } from "../limits.js";

/**
 * What a router's `async` returns for a call it has answered with `null` already (an emit the
 * sandbox thread answers ahead of the owner): the guest gets call id 0 and settles the call
 * itself, in the same slice, instead of a later slice spent only on delivering `null`.
 */
export const ANSWERED_NOW: unique symbol = Symbol("answered now");
/** The call id `__svc_call` returns for a call answered now (real ids start at 1). */
export const ANSWERED_NOW_ID = 0;

export interface OpRouter {
  /** Serves a synchronous op; throws to make the guest call throw. */
  sync(op: string, args: unknown): unknown;
  /** Starts an asynchronous op (or answers it now with null), or returns undefined when `op` is not one. */
  async(op: string, args: unknown, callId: number): Promise<unknown> | typeof ANSWERED_NOW | undefined;
  /** Longest JSON text the op accepts, in characters. */
  maxJsonChars(op: string): number;
}

export interface Reply {
  id: number;
  /** The op it answers. */
  op: string;
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string };
}

const MAX_OP_CHARS = 64;

/** The router of a bridge not yet bound to an extension: refuses everything. */
const UNBOUND: OpRouter = {
  sync: () => {
    throw new Error("the sandbox is not ready");
  },
  async: () => Promise.reject(new Error("the sandbox is not ready")),
  maxJsonChars: () => MAX_OP_CHARS,
};

/** Host-side state of one context's bridge. */
export class HostBridge {
  private nextCallId = 1;
  /** Async calls not yet answered; a cancelled call is removed and its answer dropped. */
  private readonly inFlight = new Set<number>();
  /** Those of them that count against MAX_CALLS_IN_FLIGHT (timers have their own limit), with their JSON length. */
  private readonly counted = new Map<number, number>();
  /** JSON characters of the counted calls in flight: what the guest makes the host hold. */
  private charsInFlight = 0;

  private router: OpRouter = UNBOUND;
  private deliverReply: (reply: Reply) => void = () => {};

  constructor(
    private readonly context: QuickJSContext,
    /** True once the current slice is past its time: calls then fail at once, before any copying. */
    private readonly sliceOver: () => boolean = () => false,
  ) {}

  /**
   * Connects the bridge to one extension's ops, once. Until then (a prepared instance not yet
   * given to an extension) every call fails.
   */
  bind(router: OpRouter, deliverReply: (reply: Reply) => void): void {
    if (this.router !== UNBOUND) throw new Error("internal: the bridge is already bound");
    this.router = router;
    this.deliverReply = deliverReply;
  }

  /** Defines the bridge's globals; the prelude captures and deletes them. */
  install(): void {
    const { context } = this;
    const callSync = newLeanFunction(context, "__svc_callSync", ([opHandle, jsonHandle]) =>
      this.guarded(() => {
        const { op, args } = this.readCall(opHandle, jsonHandle);
        const result = this.router.sync(op, args);
        return result === undefined ? context.undefined : context.newString(JSON.stringify(result));
      }),
    );
    const call = newLeanFunction(context, "__svc_call", ([opHandle, jsonHandle]) =>
      this.guarded(() => {
        const { op, args, chars } = this.readCall(opHandle, jsonHandle);
        const counts = op !== "timer.sleep";
        if (counts && this.counted.size >= MAX_CALLS_IN_FLIGHT) {
          throw new RangeError(`${op}: too many host calls in flight (limit ${MAX_CALLS_IN_FLIGHT})`);
        }
        if (counts && this.counted.size > 0 && this.charsInFlight + chars > MAX_CHARS_IN_FLIGHT) {
          throw new RangeError(
            `${op}: too much data in flight to the host (limit ${MAX_CHARS_IN_FLIGHT} characters of JSON)`,
          );
        }
        const id = this.nextCallId++;
        const pending = this.router.async(op, args, id);
        if (!pending) throw new TypeError(`unknown operation "${op}"`);
        if (pending === ANSWERED_NOW) return context.newNumber(ANSWERED_NOW_ID);
        this.inFlight.add(id);
        if (counts) {
          this.counted.set(id, chars);
          this.charsInFlight += chars;
        }
        pending.then(
          (value) => this.answer({ id, op, ok: true, value: value ?? null }),
          (error: unknown) => this.answer({ id, op, ok: false, error: errorRecord(error) }),
        );
        return context.newNumber(id);
      }),
    );
    context.setProp(context.global, "__svc_callSync", callSync);
    context.setProp(context.global, "__svc_call", call);
    callSync.dispose();
    call.dispose();
    installByteCodec(context, this.sliceOver);
  }

  /** Drops a call's answer (a cleared timer, an aborted request). */
  cancel(id: number): void {
    this.inFlight.delete(id);
    this.uncount(id);
  }

  /** Drops every pending answer (dispose). */
  cancelAll(): void {
    this.inFlight.clear();
    this.counted.clear();
    this.charsInFlight = 0;
  }

  get callsInFlight(): number {
    return this.inFlight.size;
  }

  private uncount(id: number): void {
    this.charsInFlight -= this.counted.get(id) ?? 0;
    this.counted.delete(id);
  }

  private answer(reply: Reply): void {
    this.uncount(reply.id);
    if (!this.inFlight.delete(reply.id)) return;
    this.deliverReply(reply);
  }

  private readCall(
    opHandle: QuickJSHandle | undefined,
    jsonHandle: QuickJSHandle | undefined,
  ): { op: string; args: unknown; chars: number } {
    // Host work is invisible to QuickJS's interrupt counter: a loop of costly calls could
    // overrun the slice by seconds. Failing fast leaves only bytecode, which the handler stops.
    if (this.sliceOver()) throw new Error("interrupted");
    const op = this.readString(opHandle, MAX_OP_CHARS, "the op name", (n) => `the op name is ${n} characters long`);
    const max = this.router.maxJsonChars(op);
    const json = this.readString(
      jsonHandle,
      max,
      `${op}: the arguments`,
      (n) => `${op}: the arguments are ${n} characters of JSON, over the limit of ${max}`,
    );
    return { op, args: parseGuestJson(json, op, Infinity), chars: json.length };
  }

  /** Copies a guest string out after checking its type and length (no guest code runs). */
  private readString(
    handle: QuickJSHandle | undefined,
    max: number,
    what: string,
    tooLong: (length: number) => string,
  ): string {
    const { context } = this;
    if (!handle || !isGuestString(context, handle)) throw new TypeError(`${what} should be a string`);
    // (Not context.getLength: it answers only for objects, undefined for a string.)
    const lengthHandle = context.getProp(handle, "length");
    const length = context.getNumber(lengthHandle);
    lengthHandle.dispose();
    if (length > max) throw new RangeError(tooLong(length));
    return context.getString(handle);
  }

  /** Turns a host exception into a guest error (name and message only, never a host object). */
  private guarded(body: () => QuickJSHandle): QuickJSHandle | { error: QuickJSHandle } {
    try {
      return body();
    } catch (error) {
      const { name, message } = errorRecord(error);
      return { error: this.context.newError({ name, message }) };
    }
  }
}

/** `{name, message}` of anything thrown host-side; only these two cross to the guest. */
export function errorRecord(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

export { MAX_CALL_JSON_CHARS };
