/** What a sandbox owner may tune when creating the capabilities; everything has a default. */
import { DEFAULT_LIMITS, type CapabilityLimits } from "./limits.js";
import { systemResolver, type Resolver } from "./address-guard.js";

export interface CapabilityOptions {
  limits?: Partial<CapabilityLimits>;
  /** Host name resolution for fetch and WebSocket. Default: the system resolver (`dns.lookup`). */
  resolve?: Resolver;
  /**
   * The PATH exec resolves bare names on and gives to the child. Default: the host's own PATH,
   * relative entries dropped.
   */
  execPath?: string;
}

export interface ResolvedOptions {
  readonly limits: Readonly<CapabilityLimits>;
  readonly resolve: Resolver;
  readonly execPath: string;
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
  };
}
