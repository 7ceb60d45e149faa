/**
 * `permissions.network`: which hosts fetch and WebSocket may reach. Manifest entries and
 * requested URLs go through the same WHATWG URL parser, so every spelling of a host (case,
 * trailing dot, Unicode vs punycode, `2130706433` vs `127.0.0.1`, IPv6 forms) is compared in
 * one canonical form. `check` returns the URL object the caller must then use.
 */
import { isIP } from "node:net";
import { classifyAddress, type AddressClass } from "./address-guard.js";
import type { CapabilityContext } from "./context.js";
import { deny, networkFix } from "./denial.js";

/**
 * One parsed manifest entry. A wildcard matches strict subdomains only, never the apex. Without
 * a port an entry allows the scheme's own port only (80 for http/ws, 443 for https/wss).
 */
export type HostPattern =
  { kind: "exact"; host: string; port?: number } | { kind: "wildcard"; suffix: string; port?: number };

/** The scheme's own port. */
export const DEFAULT_PORTS: Readonly<Record<string, number>> = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 };

/**
 * Ports a browser never connects to (the WHATWG fetch standard's "bad port" list): mail, ssh,
 * irc and other services that a cross-protocol request could fool. Refused for fetch and
 * WebSocket alike, whatever the manifest lists.
 */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export interface NetworkPolicy {
  readonly patterns: readonly HostPattern[];
  /** Entries that could not be read as a host name; they allow nothing. */
  readonly invalid: readonly string[];
  /** The origins the person granted, parsed; a granted origin that does not parse admits nothing. */
  readonly granted: readonly GrantedOrigin[];
  /**
   * True when `host` (canonical, from `canonicalHost`) is allowed on `port` for `scheme` (`https:`
   * …), the scheme's own port being `defaultPort`.
   */
  allows(host: string, port: number, defaultPort: number, scheme: string): boolean;
  /** True when `host` is listed on some port (to say "not on that port" rather than "not listed"). */
  listsHost(host: string): boolean;
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

/**
 * Reads one manifest entry the way a URL's host is read: the canonical value the fence enforces
 * (the install review shows it too); undefined when it is not a host, and allows nothing.
 * @example canonicalNetworkEntry("2130706433:47811") // { kind: "exact", host: "127.0.0.1", port: 47811 }
 * @example canonicalNetworkEntry("0x7f.1:8080")      // { kind: "exact", host: "127.0.0.1", port: 8080 }
 */
export function canonicalNetworkEntry(raw: string): HostPattern | undefined {
  let entry = raw.trim().toLowerCase();
  const wildcard = entry.startsWith("*.");
  if (wildcard) entry = entry.slice(2);
  if (isIP(entry) === 6) entry = `[${entry}]`;
  // A host and an optional port only: no scheme, path, user name, query or stray wildcard.
  if (entry === "" || /[/@?#\\*\s]/.test(entry)) return undefined;
  const withPort = /^(.*?)(?::(\d{1,5}))?$/.exec(entry);
  if (!withPort) return undefined;
  const [, hostPart, portText] = withPort;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (/:(?![^[]*\])/.test(hostPart)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${hostPart}`);
  } catch {
    return undefined;
  }
  const host = canonicalHost(url.hostname);
  if (host === "" || host.startsWith(".") || url.port !== "") return undefined;
  if (!wildcard) return { kind: "exact", host, port };
  // `*.10.0.0.1` would be meaningless: IP literals are matched exactly or not at all.
  return ipLiteral(host) === undefined ? { kind: "wildcard", suffix: `.${host}`, port } : undefined;
}

/**
 * An entry in its canonical spelling.
 * @example networkEntryText({ kind: "exact", host: "127.0.0.1", port: 47811 }) // "127.0.0.1:47811"
 */
export function networkEntryText(pattern: HostPattern): string {
  const host = pattern.kind === "exact" ? pattern.host : `*${pattern.suffix}`;
  return pattern.port === undefined ? host : `${host}:${pattern.port}`;
}

/**
 * The kind of address an entry lets the extension connect to, as the connect-time guard
 * (address-guard.ts) decides: an IP literal is its own kind, `localhost` is loopback, and any
 * other name (wildcards included) reaches public addresses only, whatever its DNS says.
 * @example networkEntryClass(canonicalNetworkEntry("0xa9fea9fe")!) // "cloud metadata"
 */
export function networkEntryClass(pattern: HostPattern): AddressClass {
  if (pattern.kind === "wildcard") return "public";
  if (pattern.host === "localhost") return "loopback";
  const ip = ipLiteral(pattern.host);
  return ip === undefined ? "public" : classifyAddress(ip);
}

/** An origin the person granted: exactly this scheme (`http:` or `https:`), host and port. */
export interface GrantedOrigin {
  scheme: "http:" | "https:";
  host: string;
  port: number;
}

/** The web scheme a WebSocket scheme stands for: `wss://h` reaches a granted `https://h`. */
const WEB_SCHEME: Readonly<Record<string, string>> = { "ws:": "http:", "wss:": "https:" };

/**
 * Reads a granted origin (or any http/https address: only its origin counts) the way the fence
 * reads a requested URL. Undefined when it is not an http or https address with a host, or
 * carries a user name or password.
 * @example canonicalOrigin("HTTP://192.168.1.20:8123/api") // { scheme: "http:", host: "192.168.1.20", port: 8123 }
 */
export function canonicalOrigin(raw: string): GrantedOrigin | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "") return undefined;
  const host = canonicalHost(url.hostname);
  if (host === "") return undefined;
  const port = url.port === "" ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  return { scheme: url.protocol, host, port };
}

/**
 * A granted origin in its canonical spelling, the scheme's own port left out.
 * @example originText({ scheme: "https:", host: "calendar.google.com", port: 443 }) // "https://calendar.google.com"
 */
export function originText(origin: GrantedOrigin): string {
  const port = origin.port === DEFAULT_PORTS[origin.scheme] ? "" : `:${origin.port}`;
  return `${origin.scheme}//${origin.host}${port}`;
}

/**
 * Parses `permissions.network`, and the origins the person granted (`grantedOrigins`, from the
 * host only).
 * @example
 * const policy = parseNetworkPolicy(["api.example.com", "*.example.org"]);
 * policy.allows("a.example.org") // true
 * policy.allows("example.org")   // false: a wildcard never matches its apex
 */
export function parseNetworkPolicy(entries: readonly string[], grantedOrigins: readonly string[] = []): NetworkPolicy {
  const granted = grantedOrigins.flatMap((raw) => (typeof raw === "string" ? (canonicalOrigin(raw) ?? []) : []));
  const patterns: HostPattern[] = [];
  const invalid: string[] = [];
  for (const raw of entries) {
    const pattern = typeof raw === "string" ? canonicalNetworkEntry(raw) : undefined;
    if (pattern) patterns.push(pattern);
    else invalid.push(String(raw));
  }
  const exactHosts = new Set([
    ...patterns.flatMap((p) => (p.kind === "exact" ? [p.host] : [])),
    ...granted.map((origin) => origin.host),
  ]);
  const literals = new Set([...exactHosts].flatMap((h) => ipLiteral(h) ?? []));
  const matches = (p: HostPattern, host: string) =>
    p.kind === "exact"
      ? p.host === host
      : ipLiteral(host) === undefined && host.length > p.suffix.length && host.endsWith(p.suffix);
  return {
    patterns,
    invalid,
    granted,
    listsLocalhost: exactHosts.has("localhost"),
    allows: (host, port, defaultPort, scheme) =>
      patterns.some((p) => matches(p, host) && (p.port ?? defaultPort) === port) ||
      granted.some((o) => o.host === host && o.port === port && o.scheme === (WEB_SCHEME[scheme] ?? scheme)),
    listsHost: (host) => patterns.some((p) => matches(p, host)) || granted.some((o) => o.host === host),
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
export function checkNetworkUrl(cx: CapabilityContext, policy: NetworkPolicy, kind: NetworkKind, raw: string): URL {
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
  const defaultPort = DEFAULT_PORTS[url.protocol];
  const port = url.port === "" ? defaultPort : Number(url.port);
  if (BAD_PORTS.has(port)) {
    throw deny(cx, {
      kind,
      target: `${host}:${port}`,
      reason: `port ${port} is one browsers never connect to (it belongs to another protocol)`,
    });
  }
  if (!policy.allows(host, port, defaultPort, url.protocol)) {
    const hostListed = policy.listsHost(host);
    const entry = port === defaultPort ? host : `${host}:${port}`;
    throw deny(cx, {
      kind,
      target: entry,
      reason: hostListed ? `"${host}" is listed, but not for port ${port}` : `"${host}" is not in permissions.network`,
      fix: networkFix(entry),
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
    policy = parseNetworkPolicy(cx.permissions.network, cx.permissions.grantedOrigins ?? []);
    policies.set(cx, policy);
  }
  return policy;
}
