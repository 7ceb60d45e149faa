/**
 * DNS rebinding guard. A listed *name* may resolve to anything its DNS owner likes, including
 * 127.0.0.1 or the cloud metadata service. At connect time (a custom `lookup` given to undici
 * and ws, so the address checked is the address connected to) an address that is not public is
 * used only when the manifest lists that IP literal itself, or for the name `localhost` listed
 * itself when the address is loopback.
 */
import { BlockList, isIP, type LookupFunction } from "node:net";
import { promises as dns } from "node:dns";
import type { CapabilityContext } from "./index.js";
import { deny, networkFix } from "./denial.js";
import type { NetworkKind, NetworkPolicy } from "./network-policy.js";

export type AddressClass =
  | "public" | "loopback" | "private" | "link-local" | "cloud metadata"
  | "unspecified" | "multicast" | "reserved";

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
  ["private", blockList(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"], ["fc00::/7"])],
  ["link-local", blockList(["169.254.0.0/16"], ["fe80::/10"])],
  ["multicast", blockList(["224.0.0.0/4"], ["ff00::/8"])],
  ["reserved", blockList(["240.0.0.0/4", "192.0.0.0/24", "198.18.0.0/15"], ["100::/64"])],
];

/**
 * What kind of address `ip` is.
 * @example classifyAddress("::ffff:127.0.0.1") // "loopback"
 */
export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  for (const [name, list] of CLASSES) if (list.check(ip, family)) return name;
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
