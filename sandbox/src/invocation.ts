/**
 * What the sandbox's owner asks the guest to run: an entry point and the per-call part of `ctx`.
 * Plain data that crosses to the sandbox thread and into the guest (sandbox/guest/entry.ts), so
 * a pure module: the guest prelude's tsconfig (no Node types) imports it too.
 */

/** The per-call part of `ctx`, given by the runtime on every call into the guest. */
export interface CallContext {
  trigger?: { type: "launch" | "interval" | "manual" | "preferences" };
  preferences: Record<string, unknown>;
}

/** Entry points into the guest and their arguments. */
export type Invocation =
  | { kind: "update"; ctx: CallContext }
  | { kind: "onEvent"; ctx: CallContext; event: unknown }
  | { kind: "onAction"; ctx: CallContext; action: unknown }
  | { kind: "tool.run"; ctx: CallContext; tool: string; action: string; values: unknown; files: string[] }
  | { kind: "tool.drop"; ctx: CallContext; tool: string; action: string; files: string[] };
