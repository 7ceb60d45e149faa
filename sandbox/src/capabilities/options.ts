/** What a sandbox owner may tune when creating the capabilities; everything has a default. */
import { DEFAULT_LIMITS, type CapabilityLimits } from "./limits.js";
import type { Response } from "undici";
import { systemResolver, type Resolver } from "./address-guard.js";
import { newTagPrefix } from "./process-tags.js";

/** One hop of a guest's fetch, already checked against `permissions.network`. */
export interface FetchHop {
  url: string;
  method: string;
  headers: [string, string][];
  body: Buffer | undefined;
  signal: AbortSignal;
}

/**
 * Carries one checked hop of extension `extensionId`: `network` is the real, guarded connection.
 * The default sends every hop to `network`; the test kit records or replays instead (and
 * svc-runtime's test switch SVC_TEST_REPLAY, replay-switch.ts). Redirects still come back here
 * hop by hop, each checked against the policy before it is carried.
 */
export type FetchTransport = (
  hop: FetchHop,
  network: (hop: FetchHop) => Promise<Response>,
  extensionId: string,
) => Promise<Response>;

export interface CapabilityOptions {
  limits?: Partial<CapabilityLimits>;
  /** Host name resolution for fetch and WebSocket. Default: the system resolver (`dns.lookup`). */
  resolve?: Resolver;
  /**
   * The PATH exec resolves bare names on and gives to the child. Default: the host's own PATH,
   * relative entries dropped.
   */
  execPath?: string;
  /** How fetch hops reach the network. Default: straight to it. */
  transport?: FetchTransport;
  /**
   * The prefix of every exec's process tag (process-tags.ts), so whoever made it can kill
   * everything these capabilities started with `killTagged(prefix)`. Default: a fresh one.
   */
  execTag?: string;
  /** Run programs the person can write (tests that run scripts from a temp folder). Default false. */
  allowWritablePrograms?: boolean;
}

export interface ResolvedOptions {
  readonly limits: Readonly<CapabilityLimits>;
  readonly resolve: Resolver;
  readonly execPath: string;
  readonly transport: FetchTransport | undefined;
  readonly execTag: string;
  readonly allowWritablePrograms: boolean;
}

/** Fills in every default. */
export function resolveOptions(options: CapabilityOptions = {}): ResolvedOptions {
  const hostPath = (process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin")
    .split(":")
    .filter((dir) => dir.startsWith("/"))
    .join(":");
  return {
    limits: Object.freeze({ ...DEFAULT_LIMITS, ...options.limits }),
    resolve: options.resolve ?? systemResolver,
    execPath: options.execPath ?? hostPath,
    transport: options.transport,
    execTag: options.execTag ?? newTagPrefix(),
    allowWritablePrograms: options.allowWritablePrograms ?? false,
  };
}
