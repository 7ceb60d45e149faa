/**
 * Which code serves each bridge op (BRIDGE.md): the sandbox's own ops, the fenced capabilities
 * (`createCapabilities`), and the ops forwarded to the runtime through `ForwardedCalls`.
 */
import type { Capabilities, CapabilityContext } from "../capabilities/index.js";
import { parseUrl, randomBase64, requiredName, setUrlPart, timerArgs } from "./builtin-ops.js";
import { checkForwardedArgs, isForwardedOp } from "./forwarded-args.js";
import type { OpsOf } from "./op-table.js";
import type { IntlOps } from "./intl-ops.js";
import type { SubtleOps } from "./subtle-ops.js";
import { ANSWERED_NOW, type OpRouter } from "../engine/guest-calls.js";
import type { TimerOps } from "./timer-ops.js";
import type { LogGate } from "./log-gate.js";
import { MAX_CALL_JSON_CHARS, MAX_EMITS_AHEAD, MAX_EMIT_JSON_CHARS, MAX_RESULT_JSON_CHARS } from "../limits.js";
import type { ForwardedCalls, LogLevel } from "../types.js";
import type { InvocationOwners } from "./invocation-owners.js";

const MiB = 1024 * 1024;

/** Ops whose arguments may be longer than the 1 MB default (bodies travel as base64). */
const LONG_ARGS: Record<string, number> = {
  fetch: 15 * MiB,
  "files.write": 15 * MiB,
  "ws.send": 1.5 * MiB,
  "crypto.subtle": 15 * MiB,
  "invoke.done": MAX_RESULT_JSON_CHARS,
};

export interface RouterDeps {
  capabilities: Capabilities;
  cx: CapabilityContext;
  forwarded: ForwardedCalls;
  timers: TimerOps;
  /** The sandbox's log lines on their way to the host, paced (log-gate.ts). */
  logs: LogGate;
  /** The sandbox's Intl objects (intl-ops.ts). */
  intl: IntlOps;
  /** The sandbox's WebCrypto keys and operations (subtle-ops.ts). */
  subtle: SubtleOps;
  /** Which invocation each async call belongs to (its deadline ends the call). */
  owners: InvocationOwners;
  /** `invoke.done {callId, ok, value | error}` from the prelude. */
  invokeDone(args: unknown): void;
  /** Records the refused module and returns the error to throw. */
  refuseModule(name: string): Error;
}

/**
 * @example const router = createRouter({ capabilities, cx, forwarded, timers, logs, intl, subtle, owners, invokeDone, refuseModule });
 */
export function createRouter(deps: RouterDeps): OpRouter {
  const { capabilities, cx, timers, owners } = deps;
  // Every sync op the table says the sandbox serves, and only those (op-table.ts).
  const sync: Record<OpsOf<"sync", "sandbox">, (args: unknown) => unknown> = {
    "timer.cancel": (args) => timers.cancel(timerArgs(args, "timer.cancel").id) ?? null,
    "url.parse": parseUrl,
    "url.set": setUrlPart,
    "crypto.random": randomBase64,
    "intl.make": (args) => deps.intl.make(args),
    "intl.call": (args) => deps.intl.call(args),
    "intl.query": (args) => deps.intl.query(args),
    "module.require": (args) => {
      throw deps.refuseModule(requiredName(args));
    },
    "invoke.done": (args) => deps.invokeDone(args) ?? null,
  };
  /**
   * `ctx.emit` is answered here, on the sandbox thread, without waiting for the owner (who
   * validates, stamps and sends it, and always answers): an awaited emit then costs one
   * crossing, not a round trip through the protocol thread, and is settled in the guest's own
   * slice (ANSWERED_NOW: no slice of its own to deliver `null`). At most MAX_EMITS_AHEAD are
   * answered ahead of the owner; past that an emit waits for its own answer, so a guest can
   * never flood the protocol thread. The owner's answers arrive in order before the
   * invocation's result, and the runtime sends every blip before it answers the invocation.
   */
  let emitsAhead = 0;
  const emitAhead = (forwarded: Promise<unknown>, callId: number): Promise<unknown> | typeof ANSWERED_NOW => {
    if (emitsAhead >= MAX_EMITS_AHEAD) return forwarded;
    emitsAhead++;
    const done = () => void emitsAhead--;
    forwarded.then(done, done);
    owners.release(callId); // no answer will be delivered for it
    return ANSWERED_NOW;
  };
  return {
    sync(op, args) {
      if (Object.hasOwn(sync, op)) return sync[op as keyof typeof sync](args);
      if (Object.hasOwn(capabilities.sync, op)) return capabilities.sync[op](args, cx);
      throw new TypeError(`unknown operation "${op}"`);
    },
    async(op, args, callId) {
      // Each call is adopted by the current invocation once its arguments passed their checks: a
      // call refused at once is never recorded, so a guest's stream of bad calls leaves nothing.
      if (op === "timer.sleep") {
        const { id, ms } = timerArgs(args, "timer.sleep");
        return timers.sleep(id, ms, callId, owners.adoptAbortable(callId));
      }
      if (op === "crypto.subtle") {
        owners.adopt(callId);
        return deps.subtle.run(args);
      }
      if (isForwardedOp(op)) {
        const checked = checkForwardedArgs(op, args);
        owners.adopt(callId);
        // Paced here, so a flood is dropped before it crosses to the protocol thread.
        if (op === "log")
          return deps.logs.send({ level: checked.level as LogLevel, message: checked.message as string });
        const forwarded = Promise.resolve().then(() => deps.forwarded.forward(op, checked));
        return op === "emit" ? emitAhead(forwarded, callId) : forwarded;
      }
      if (Object.hasOwn(capabilities.async, op)) {
        if (Object.hasOwn(capabilities.checks, op)) capabilities.checks[op](args);
        const signal = owners.adoptAbortable(callId);
        return Promise.resolve().then(() => capabilities.async[op](args, cx, { signal }));
      }
      return undefined;
    },
    maxJsonChars(op) {
      if (Object.hasOwn(LONG_ARGS, op)) return LONG_ARGS[op];
      // A blip is validated against a deep schema: an oversized one never leaves the guest.
      return op === "emit" ? MAX_EMIT_JSON_CHARS : MAX_CALL_JSON_CHARS;
    },
  };
}
