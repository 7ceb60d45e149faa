/**
 * The manifest's `permissions` (SPEC.md): hostnames `fetch` and WebSocket may reach (a `*.`
 * prefix wildcard allowed), paths the extension may read or watch (`~` allowed), and
 * executables `ctx.exec` may run. Each list defaults to empty: nothing is allowed.
 */
import { z } from "zod";
import { nonEmpty } from "./text.js";

const HOSTNAME =
  /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d{2}|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?$/i;

/**
 * A hostname, optionally with a `*.` prefix wildcard, optionally with a port; no scheme or path.
 * Without a port only the scheme's own port is allowed (80 for http and ws, 443 for https and wss).
 *
 * @example
 * "api.github.com" // or "*.githubusercontent.com", or "localhost:8080"
 */
export const networkHostSchema = z.string().regex(HOSTNAME, {
  error: "should be a hostname like api.example.com, *.example.com or localhost:8080 (no scheme or path)",
});

/**
 * True when `host` is allowed by `network`: an exact entry (case-insensitive), or a `*.suffix`
 * entry and `host` ends in `.suffix` (the wildcard does not cover `suffix` itself).
 *
 * @example
 * networkAllows(["*.example.com"], "api.example.com") // true
 * networkAllows(["*.example.com"], "example.com")     // false
 */
export function networkAllows(network: readonly string[], host: string): boolean {
  const wanted = host.toLowerCase();
  return network.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed.startsWith("*.") ? wanted.endsWith(allowed.slice(1)) : wanted === allowed;
  });
}

export const permissionsSchema = z.object({
  network: z.array(networkHostSchema).default([]),
  files: z.array(nonEmpty).default([]),
  exec: z.array(nonEmpty).default([]),
  /**
   * Allows `exec` entries that run other programs (shells, `env`, interpreters, `find` …; see
   * programs.ts). Without it they are refused when run. The install summary shows it as
   * "can run any command".
   */
  runAnyCommand: z.boolean().default(false),
});

export type ManifestPermissions = z.infer<typeof permissionsSchema>;
