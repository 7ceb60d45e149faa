/**
 * `permissions.network`: which hosts fetch and WebSocket may reach. Manifest entries and
 * requested URLs go through the same WHATWG URL parser, so every spelling of a host (case,
 * trailing dot, Unicode vs punycode, `2130706433` vs `127.0.0.1`, IPv6 forms) is compared in
 * one canonical form. `check` returns the URL object the caller must then use.
 */
import { isIP } from "node:net";
import type { CapabilityContext } from "./index.js";
import { deny, networkFix } from "./denial.js";

/** One parsed manifest entry. A wildcard matches strict subdomains only, never the apex. */
export type HostPattern =
  | { kind: "exact"; host: string }
  | { kind: "wildcard"; suffix: string };

export interface NetworkPolicy {
  readonly patterns: readonly HostPattern[];
  /** Entries that could not be read as a host name; they allow nothing. */
  readonly invalid: readonly string[];
  /** True when `host` (canonical, from `canonicalHost`) is allowed. */
  allows(host: string): boolean;
  /** True when the manifest names this IP literal (canonical, without brackets) itself. */
  listsAddress(ip: string): boolean;
  /** True when the manifest names `localhost` itself (not through a wildcard). */
  readonly listsLocalhost: boolean;
}

/**
 * Canonical form of a URL's hostname: lower case, punycode, IPv4 dotted, IPv6 compressed in
 * brackets (all done by the URL parser), without the one trailing dot DNS allows.
 * @example canonicalHost(new URL("http://EXAMPLE.com.").hostname) // "example.com"
 */
export function canonicalHost(hostname: string): string {
  return hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
}

/** A canonical host without IPv6 brackets, or undefined when it is a name, not an IP literal. */
export function ipLiteral(host: string): string | undefined {
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  return isIP(bare) ? bare : undefined;
}

/** Reads one manifest entry the way a URL's host is read; undefined when it is not a host. */
function parseEntry(raw: string): HostPattern | undefined {
  let entry = raw.trim().toLowerCase();
  const wildcard = entry.startsWith("*.");
  if (wildcard) entry = entry.slice(2);
  if (isIP(entry) === 6) entry = `[${entry}]`;
  // A hostname only: no scheme, port, path, user name, query or stray wildcard.
  if (entry === "" || /[/@?#\\*\s]/.test(entry) || /:(?![^[]*\])/.test(entry)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    return undefined;
  }
  const host = canonicalHost(url.hostname);
  if (host === "" || host.startsWith(".") || url.port !== "") return undefined;
  if (!wildcard) return { kind: "exact", host };
  // `*.10.0.0.1` would be meaningless: IP literals are matched exactly or not at all.
  return ipLiteral(host) === undefined ? { kind: "wildcard", suffix: `.${host}` } : undefined;
}

/**
 * Parses `permissions.network`.
 * @example
 * const policy = parseNetworkPolicy(["api.example.com", "*.example.org"]);
 * policy.allows("a.example.org") // true
 * policy.allows("example.org")   // false: a wildcard never matches its apex
 */
export function parseNetworkPolicy(entries: readonly string[]): NetworkPolicy {
  const patterns: HostPattern[] = [];
  const invalid: string[] = [];
  for (const raw of entries) {
    const pattern = typeof raw === "string" ? parseEntry(raw) : undefined;
    if (pattern) patterns.push(pattern);
    else invalid.push(String(raw));
  }
  const exact = new Set(patterns.flatMap((p) => (p.kind === "exact" ? [p.host] : [])));
  const suffixes = patterns.flatMap((p) => (p.kind === "wildcard" ? [p.suffix] : []));
  const literals = new Set([...exact].flatMap((h) => ipLiteral(h) ?? []));
  return {
    patterns,
    invalid,
    listsLocalhost: exact.has("localhost"),
    allows(host) {
      if (exact.has(host)) return true;
      if (ipLiteral(host) !== undefined) return false;
      return suffixes.some((s) => host.length > s.length && host.endsWith(s));
    },
    listsAddress: (ip) => literals.has(ip),
  };
}

export type NetworkKind = "fetch" | "websocket";

const SCHEMES: Record<NetworkKind, readonly string[]> = {
  fetch: ["http:", "https:"],
  websocket: ["ws:", "wss:"],
};

/**
 * Parses and checks one URL a guest asks for. Returns the normalized URL to connect to; throws
 * a `TypeError` for a URL that does not parse and a denial for anything the policy refuses.
 * @example
 * const url = checkNetworkUrl(cx, policy, "fetch", "HTTPS://API.Example.com./v1");
 * url.href // "https://api.example.com/v1"
 */
export function checkNetworkUrl(
  cx: CapabilityContext,
  policy: NetworkPolicy,
  kind: NetworkKind,
  raw: string,
): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`${kind === "fetch" ? "fetch" : "WebSocket"}: "${clip(raw)}" is not a valid absolute URL`);
  }
  const schemes = SCHEMES[kind];
  if (!schemes.includes(url.protocol)) {
    throw deny(cx, {
      kind,
      target: clip(url.href),
      reason: `only ${schemes.map((s) => s.slice(0, -1)).join(" and ")} URLs are allowed`,
    });
  }
  const host = canonicalHost(url.hostname);
  if (url.username !== "" || url.password !== "") {
    throw deny(cx, {
      kind,
      target: host,
      reason: "URLs carrying a user name or password are refused",
      fix: "send credentials in a header instead",
    });
  }
  if (!policy.allows(host)) {
    throw deny(cx, {
      kind,
      target: host,
      reason: `"${host}" is not in permissions.network`,
      fix: networkFix(host),
    });
  }
  url.hostname = host;
  return url;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

const policies = new WeakMap<CapabilityContext, NetworkPolicy>();

/** The sandbox's parsed network policy, parsed once per sandbox. */
export function networkPolicyOf(cx: CapabilityContext): NetworkPolicy {
  let policy = policies.get(cx);
  if (!policy) {
    policy = parseNetworkPolicy(cx.permissions.network);
    policies.set(cx, policy);
  }
  return policy;
}
