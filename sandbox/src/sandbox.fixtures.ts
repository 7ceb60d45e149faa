/**
 * Shared test helpers: a recording ForwardedCalls, sandbox options from a code string, and a way to
 * wait for a listener callback. Not part of the package (excluded from the build).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  ForwardedOp,
  ForwardedCalls,
  SandboxCrash,
  SandboxEvent,
  SandboxListeners,
  SandboxOptions,
} from "./types.js";

export const NO_PERMISSIONS = { network: [], files: [], exec: [] };

const root = mkdtempSync(join(tmpdir(), "svc-sandbox-test-"));
let counter = 0;

/** Options for a sandbox running `code` (a CommonJS bundle), each with its own data folder. */
export function optionsFor(code: string, extra: Partial<SandboxOptions> = {}): SandboxOptions {
  const id = extra.id ?? `test.sandbox${++counter}`;
  return { id, code, permissions: NO_PERMISSIONS, dataDir: join(root, `${id}-${counter}`), ...extra };
}

/** A bundle whose `update()` runs `body` (an async function body with `ctx` in scope). */
export function updateBundle(body: string): string {
  return `module.exports = { async update(ctx) { ${body} } };`;
}

export const UPDATE = { kind: "update", ctx: { preferences: {} } } as const;

export interface Recorder extends SandboxListeners {
  calls: { op: ForwardedOp; args: unknown }[];
  events: SandboxEvent[];
  crashes: SandboxCrash[];
  logs(): string[];
  nextCrash(): Promise<SandboxCrash>;
}

/** Listeners that record everything and answer forwarded ops from `answers` (default null). */
export function recorder(answers: Partial<Record<ForwardedOp, unknown>> = {}): Recorder {
  const calls: Recorder["calls"] = [];
  const events: SandboxEvent[] = [];
  const crashes: SandboxCrash[] = [];
  const waiting: ((crash: SandboxCrash) => void)[] = [];
  const forwarded: ForwardedCalls = {
    async forward(op, args) {
      calls.push({ op, args });
      return answers[op] ?? null;
    },
  };
  return {
    forwarded,
    calls,
    events,
    crashes,
    onEvent: (event) => events.push(event),
    onCrash: (crash) => {
      crashes.push(crash);
      waiting.splice(0).forEach((resolve) => resolve(crash));
    },
    logs: () => calls.filter((c) => c.op === "log").map((c) => (c.args as { message: string }).message),
    nextCrash: () =>
      crashes.length ? Promise.resolve(crashes[crashes.length - 1]) : new Promise((resolve) => waiting.push(resolve)),
  };
}
