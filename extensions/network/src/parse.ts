/**
 * Reading what Network's sources answer. Each parser returns undefined for output it does not
 * recognise, so one odd answer leaves out one reading, never the blips.
 */

/** ipinfo.io/json's answer, the fields shown (ipinfo.io developer docs). */
export interface PublicAddress {
  ip: string;
  /** ISO 3166-1 alpha-2, e.g. "DE". */
  country?: string;
  city?: string;
  /** "AS3320 Deutsche Telekom AG": the network's number and name. */
  org?: string;
}

export function parseIpinfo(body: unknown): PublicAddress | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const { ip, country, city, org } = body as Record<string, unknown>;
  if (typeof ip !== "string" || ip.length === 0 || ip.length > 64) return undefined;
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const code = text(country);
  return {
    ip,
    ...(code && /^[A-Z]{2}$/.test(code) ? { country: code } : {}),
    ...(text(city) ? { city: text(city) } : {}),
    ...(text(org) ? { org: text(org) } : {}),
  };
}

/** The network's name without its AS number: "AS3320 Deutsche Telekom AG" → "Deutsche Telekom AG". */
export function networkName(org: string): string {
  return org.replace(/^AS\d+\s+/, "");
}

/** `tailscale status --json`, the fields shown (tailscale ipn/ipnstate: Status). */
export interface TailscaleStatus {
  /** "NoState", "NeedsLogin", "NeedsMachineAuth", "Stopped", "Starting" or "Running". */
  state: string;
  /** The first Tailscale address of this machine, when it has one. */
  address?: string;
  tailnet?: string;
  /** Set when traffic leaves through an exit node. */
  exitNode?: { online: boolean };
}

export function parseTailscale(stdout: string): TailscaleStatus | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== "object") return undefined;
  const status = raw as {
    BackendState?: unknown;
    TailscaleIPs?: unknown;
    CurrentTailnet?: { Name?: unknown } | null;
    ExitNodeStatus?: { Online?: unknown } | null;
  };
  if (typeof status.BackendState !== "string") return undefined;
  const ips = Array.isArray(status.TailscaleIPs) ? status.TailscaleIPs.filter((ip) => typeof ip === "string") : [];
  const tailnet = status.CurrentTailnet?.Name;
  return {
    state: status.BackendState,
    ...(ips.length > 0 ? { address: ips[0] as string } : {}),
    ...(typeof tailnet === "string" && tailnet ? { tailnet } : {}),
    ...(status.ExitNodeStatus ? { exitNode: { online: status.ExitNodeStatus.Online === true } } : {}),
  };
}

/** What a BackendState means to a person. */
export function tailscaleWords(state: string): string {
  const words: Record<string, string> = {
    Running: "up",
    Starting: "starting",
    Stopped: "off",
    NeedsLogin: "signed out",
    NeedsMachineAuth: "waiting for approval",
    NoState: "not running",
  };
  return words[state] ?? state;
}

/** The connection types nmcli reports for VPNs (nm-settings-nmcli(5), connection.type). */
const VPN_TYPES = new Set(["vpn", "wireguard"]);

/**
 * `nmcli -t -f NAME,TYPE connection show --active`: one `name:type` line per active connection,
 * `:` and `\` inside a value escaped with `\` (nmcli(1), --terse). The names of active VPNs.
 *
 * @example
 * parseNmcliVpns("Wired connection 1:802-3-ethernet\nOffice\\: Berlin:vpn\n"); // ["Office: Berlin"]
 */
export function parseNmcliVpns(stdout: string): string[] {
  const vpns: string[] = [];
  for (const line of stdout.split("\n")) {
    if (!line) continue;
    const fields: string[] = [""];
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === "\\" && i + 1 < line.length) fields[fields.length - 1] += line[++i];
      else if (c === ":") fields.push("");
      else fields[fields.length - 1] += c;
    }
    if (fields.length === 2 && VPN_TYPES.has(fields[1]!)) vpns.push(fields[0]!);
  }
  return vpns;
}

export interface PingSummary {
  /** Average round trip in milliseconds, when any reply came. */
  averageMs?: number;
  /** Share of pings lost, 0–1. */
  loss: number;
}

/**
 * iputils `ping -c N -q` summary: "3 packets transmitted, 3 received, 0% packet loss, time 2003ms"
 * and "rtt min/avg/max/mdev = 9.1/10.2/11.9/1.1 ms" (the second line only when a reply came).
 */
export function parsePing(stdout: string): PingSummary | undefined {
  const loss = /([\d.]+)% packet loss/.exec(stdout);
  if (!loss) return undefined;
  const rtt = /= [\d.]+\/([\d.]+)\/[\d.]+\/[\d.]+ ms/.exec(stdout);
  return {
    loss: Number(loss[1]) / 100,
    ...(rtt ? { averageMs: Number(rtt[1]) } : {}),
  };
}
