/**
 * DNS rebinding guard. A listed *name* may resolve to anything its DNS owner likes, including
 * 127.0.0.1 or the cloud metadata service. At connect time (a custom `lookup` given to undici
 * and ws, so the address checked is the address connected to) an address that is not public is
 * used only when the manifest lists that IP literal itself, or for the name `localhost` listed
 * itself when the address is loopback.
 */
import { BlockList, isIP, type LookupFunction } from "node:net";
import { promises as dns } from "node:dns";
import type { CapabilityContext } from "./context.js";
import { deny, networkFix } from "./denial.js";
import type { NetworkKind, NetworkPolicy } from "./network-policy.js";

export type AddressClass =
  "public" | "loopback" | "private" | "link-local" | "cloud metadata" | "unspecified" | "multicast" | "reserved";

function blockList(v4: string[], v6: string[] = []): BlockList {
  const list = new BlockList();
  for (const cidr of v4) {
    const [net, bits] = cidr.split("/");
    list.addSubnet(net, Number(bits), "ipv4");
  }
  for (const cidr of v6) {
    const [net, bits] = cidr.split("/");
    list.addSubnet(net, Number(bits), "ipv6");
  }
  return list;
}

// Checked in order; BlockList also matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against IPv4 rules.
const CLASSES: [AddressClass, BlockList][] = [
  ["cloud metadata", blockList(["169.254.169.254/32", "100.100.100.200/32"], ["fd00:ec2::254/128"])],
  ["loopback", blockList(["127.0.0.0/8"], ["::1/128"])],
  ["unspecified", blockList(["0.0.0.0/8"], ["::/128"])],
  [
    "private",
    blockList(
      ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"],
      ["fc00::/7", "fec0::/10", "64:ff9b:1::/48"],
    ),
  ],
  ["link-local", blockList(["169.254.0.0/16"], ["fe80::/10"])],
  ["multicast", blockList(["224.0.0.0/4"], ["ff00::/8"])],
  ["reserved", blockList(["240.0.0.0/4", "192.0.0.0/24", "198.18.0.0/15"], ["100::/64"])],
];

function classifyPlain(ip: string): AddressClass {
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  for (const [name, list] of CLASSES) if (list.check(ip, family)) return name;
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail expanded). */
function groupsOf(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

function ipv4From(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * IPv4 addresses carried inside an IPv6 one, by the forms that route to them: NAT64
 * (64:ff9b::/96), 6to4 (2002::/16), Teredo (2001::/32: server, and client with its bits
 * flipped) and the deprecated IPv4-compatible form (::a.b.c.d).
 */
function embeddedIPv4(ip: string): { addresses: string[]; form: string } | undefined {
  const g = groupsOf(ip);
  if (g.length !== 8 || g.some(Number.isNaN)) return undefined;
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return { addresses: [ipv4From(g[6], g[7])], form: "NAT64" };
  if (g[0] === 0x2002) return { addresses: [ipv4From(g[1], g[2])], form: "6to4" };
  if (g[0] === 0x2001 && g[1] === 0)
    return { addresses: [ipv4From(g[2], g[3]), ipv4From(g[6] ^ 0xffff, g[7] ^ 0xffff)], form: "Teredo" };
  if (g.slice(0, 6).every((x) => x === 0) && (g[6] !== 0 || g[7] > 1))
    return { addresses: [ipv4From(g[6], g[7])], form: "IPv4-compatible" };
  return undefined;
}

/**
 * What kind of address `ip` is. An IPv6 address carrying an IPv4 one (NAT64, 6to4, Teredo,
 * IPv4-compatible) is as private as what it carries; the local-use NAT64 prefix
 * (64:ff9b:1::/48) and site-local fec0::/10 are private; an IPv4-compatible address is at
 * best reserved (the form is deprecated).
 * @example classifyAddress("::ffff:127.0.0.1")        // "loopback"
 * @example classifyAddress("64:ff9b::a9fe:a9fe")      // "cloud metadata" (NAT64 of 169.254.169.254)
 */
export function classifyAddress(ip: string): AddressClass {
  const plain = classifyPlain(ip);
  if (plain !== "public" || isIP(ip) !== 6) return plain;
  const embedded = embeddedIPv4(ip);
  if (embedded) {
    const inner = embedded.addresses.map(classifyPlain).find((c) => c !== "public");
    if (inner) return inner;
    return embedded.form === "IPv4-compatible" ? "reserved" : "public";
  }
  return "public";
}

/** One resolved address, as `dns.lookup(…, {all: true})` gives them. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name; tests give their own to make a listed name point anywhere. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })) as ResolvedAddress[];

/** Canonical text of an address, as the policy stores IP literals. */
function canonicalAddress(address: string): string {
  return isIP(address) === 6 ? new URL(`http://[${address}]`).hostname.slice(1, -1) : address;
}

/**
 * The addresses of `hostname` this sandbox may connect to: public ones, listed literals, and
 * loopback for an explicitly listed `localhost`. Throws the denial when none is left.
 */
export async function resolveAllowed(
  cx: CapabilityContext,
  policy: NetworkPolicy,
  kind: NetworkKind,
  hostname: string,
  resolve: Resolver,
): Promise<ResolvedAddress[]> {
  const host = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  const found = await resolve(host);
  const allowed = found.filter(({ address }) => {
    const kindOf = classifyAddress(address);
    if (kindOf === "public" || policy.listsAddress(canonicalAddress(address))) return true;
    return kindOf === "loopback" && host === "localhost" && policy.listsLocalhost;
  });
  if (allowed.length > 0 || found.length === 0) return allowed;
  const first = canonicalAddress(found[0].address);
  throw deny(cx, {
    kind,
    target: host,
    reason: `"${host}" resolves to ${first}, a ${classifyAddress(found[0].address)} address, which only a listed IP literal may reach`,
    fix: networkFix(first),
  });
}

/**
 * A `lookup` for net/tls/http (undici's connector and ws pass it through) that only ever hands
 * back addresses `resolveAllowed` accepts.
 */
export function guardedLookup(
  cx: CapabilityContext,
  policy: NetworkPolicy,
  kind: NetworkKind,
  resolve: Resolver,
): LookupFunction {
  return function svcGuardedLookup(hostname, options, callback) {
    resolveAllowed(cx, policy, kind, hostname, resolve).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        if (usable.length === 0) {
          const error = Object.assign(new Error(`could not resolve ${hostname}`), { code: "ENOTFOUND" });
          return callback(error, "", 0);
        }
        if (options.all) return (callback as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, "", 0),
    );
  };
}
