/**
 * Network: three blips, each from its own source so one failing leaves the others standing.
 * - `ip`: the public address and its country from ipinfo.io (the only host it may reach). A
 *   failed or rate-limited call backs off on its own clock (Retry-After, else `backoff`), shown as
 *   a connection blip, while the other two keep their 5-minute schedule.
 * - `vpn`: Tailscale (`tailscale status --json`) and NetworkManager VPNs (`nmcli`), up or down.
 * - `latency`: the average of three pings to a public resolver the person picks.
 * Every figure carries `staleAfter`, so a reading from before a sleep is drawn stale.
 */
import {
  backoff,
  type BlipInput,
  connectionBlip,
  defineExtension,
  joinLine,
  number,
  probe,
  runProgram,
  stat,
  type Ctx,
  type Problem,
} from "@svc/api";
import {
  networkName,
  parseIpinfo,
  parseNmcliVpns,
  parsePing,
  parseTailscale,
  tailscaleWords,
  type PublicAddress,
} from "./parse.js";

const IP_URL = "https://ipinfo.io/json";
/** The manifest's interval, in seconds. */
const INTERVAL = 300;
/** Two intervals: a figure older than that is drawn stale. */
const FRESH_FOR = 2 * INTERVAL;
/** How many latency readings the sparkline keeps. */
const SERIES = 24;

const STORE = { failures: "ip.failures", retryAt: "ip.retryAt", series: "latency.series" } as const;

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The `ip` blip to show (none while waiting to try again), and how many seconds until the next try. */
async function publicAddress(ctx: Ctx): Promise<{ blip?: BlipInput; retryIn?: number }> {
  const now = Date.now();
  const retryAt = await ctx.storage.get<number>(STORE.retryAt);
  // Backing off: the blip already says when it tries again.
  if (retryAt !== undefined && now < retryAt) return { retryIn: Math.ceil((retryAt - now) / 1000) };
  const res = await probe(fetch(IP_URL, { headers: { accept: "application/json" } }));
  let found: PublicAddress | undefined;
  let problem: Problem | undefined;
  if (res.ok) {
    found = parseIpinfo(await res.value.json().catch(() => undefined));
    if (!found) problem = { kind: "failed", message: "ipinfo.io answered without an address" };
  } else {
    problem = res.problem;
  }
  if (problem) {
    const failures = (await ctx.storage.get<number>(STORE.failures)) ?? 0;
    const wait = problem.retryAfter ?? Math.round(backoff(failures, { base: 30, max: 3600 }));
    await ctx.storage.set(STORE.failures, failures + 1);
    await ctx.storage.set(STORE.retryAt, now + wait * 1000);
    return { blip: connectionBlip("ip", { ...problem, retryAfter: wait }, { title: "Public IP" }), retryIn: wait };
  }
  await ctx.storage.delete(STORE.failures);
  await ctx.storage.delete(STORE.retryAt);
  const address = found!;
  const blip = stat("ip", {
    title: "Public IP",
    subtitle: address.org ? networkName(address.org) : undefined,
    icon: "globe",
    value: address.ip,
    label: joinLine([address.country ? countryName(address.country) : null, address.city]) || undefined,
    staleAfter: FRESH_FOR,
  });
  return { blip };
}

async function vpn(ctx: Ctx): Promise<BlipInput> {
  const [tailscale, nmcli] = await Promise.all([
    runProgram(ctx, "tailscale", ["status", "--json"], { timeoutMs: 5_000 }),
    runProgram(ctx, "nmcli", ["-t", "-f", "NAME,TYPE", "connection", "show", "--active"], { timeoutMs: 5_000 }),
  ]);
  const up: string[] = [];
  const down: string[] = [];
  if (tailscale.ran) {
    // With tailscaled stopped or absent the command fails; its JSON, when there is some, is the truth.
    const status = parseTailscale(tailscale.stdout);
    if (status?.state === "Running") {
      up.push(joinLine([`Tailscale ${status.address ?? "up"}`, status.exitNode ? "via exit node" : null]));
    } else {
      down.push(`Tailscale ${status ? tailscaleWords(status.state) : "not running"}`);
    }
  }
  if (nmcli.ran && nmcli.code === 0) {
    for (const name of parseNmcliVpns(nmcli.stdout)) up.push(name);
  }
  if (!tailscale.ran && !nmcli.ran) {
    return stat("vpn", {
      title: "VPN",
      icon: "shield",
      state: "idle",
      value: "No VPN tool found",
      label: "Install Tailscale or NetworkManager (nmcli) to see VPN state",
    });
  }
  return stat("vpn", {
    title: "VPN",
    icon: up.length > 0 ? "lock.shield" : "shield.slash",
    state: up.length > 0 ? "success" : "idle",
    value: up.length > 0 ? "Up" : "Down",
    label: joinLine([...up, ...down]) || "No VPN connected",
    staleAfter: FRESH_FOR,
  });
}

async function latency(ctx: Ctx): Promise<BlipInput> {
  const target = String(ctx.preferences.pingTarget ?? "1.1.1.1");
  const run = await runProgram(ctx, "ping", ["-c", "3", "-q", target], { timeoutMs: 15_000 });
  const summary = run.ran ? parsePing(run.stdout) : undefined;
  if (!run.ran || !summary) {
    const missing = !run.ran && run.kind === "missing";
    return stat("latency", {
      title: "Latency",
      icon: "exclamationmark.triangle",
      state: missing ? "warning" : "failure",
      value: missing ? "ping is not installed" : "Can't measure",
      label: missing ? "Install ping (iputils-ping) to measure latency" : run.ran ? run.stderr.trim() : run.message,
    });
  }
  if (summary.averageMs === undefined) {
    return stat("latency", {
      title: "Latency",
      icon: "wifi.slash",
      state: "failure",
      value: "No reply",
      label: `3 pings to ${target} lost`,
      staleAfter: FRESH_FOR,
    });
  }
  const series = [...((await ctx.storage.get<number[]>(STORE.series)) ?? []), summary.averageMs].slice(-SERIES);
  await ctx.storage.set(STORE.series, series);
  return stat("latency", {
    title: "Latency",
    icon: "gauge",
    state: summary.loss > 0 ? "warning" : "idle",
    value: number(Math.round(summary.averageMs * 10) / 10, "ms"),
    label: joinLine([`to ${target}`, summary.loss > 0 ? `${Math.round(summary.loss * 100)}% lost` : null]),
    series,
    staleAfter: FRESH_FOR,
  });
}

export default defineExtension({
  async update(ctx) {
    // Read together, shown in one order: the address first.
    const [address, ...others] = await Promise.all([publicAddress(ctx), vpn(ctx), latency(ctx)]);
    for (const blip of [address.blip, ...others]) if (blip) await ctx.emit(blip);
    // Come back when the address may be asked again, so "Trying again in 25s" holds; never later than the interval.
    return address.retryIn === undefined ? {} : { nextRunAfter: Math.min(address.retryIn, INTERVAL) };
  },
});
