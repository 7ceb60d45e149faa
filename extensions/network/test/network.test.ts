/**
 * Network with @svc/testkit (`svckit test`): ipinfo.io's answers and tailscale's, nmcli's and
 * ping's output are replayed from test/recordings (written from each one's documentation).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "@svc/testkit";

const load = (recording: string, programs: string, preferences = {}) =>
  loadExtension(".", {
    recording: `test/recordings/${recording}.json`,
    programs: `test/recordings/${programs}.programs.json`,
    preferences,
  });

test("public IP with its country and network, VPNs up, latency with its sparkline", async (t) => {
  const ext = await load("ipinfo", "connected");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.network/ip", "app.svc.network/vpn", "app.svc.network/latency"],
  );
  const ip = ext.blip("ip");
  assert.equal(ip?.title, "Public IP");
  assert.equal(ip?.subtitle, "Google LLC");
  assert.equal(ip?.icon, "globe");
  assert.deepEqual(ip?.data, { value: "8.8.8.8", label: "United States · Mountain View" });
  assert.equal(ip?.staleAfter, new Date(ext.clock.now() + 600_000).toISOString());

  const vpn = ext.blip("vpn");
  assert.equal(vpn?.state, "success");
  assert.equal(vpn?.icon, "lock.shield");
  assert.deepEqual(vpn?.data, { value: "Up", label: "Tailscale 100.101.102.103 · Office: Berlin" });

  const latency = ext.blip("latency");
  assert.equal(latency?.state, "idle");
  assert.deepEqual(latency?.data, {
    value: { type: "number", value: 12.5, unit: "ms" },
    label: "to 1.1.1.1",
    series: [12.467],
  });
  assert.equal(ext.blips.length, 3);
  assert.deepEqual(ext.denials, []);
});

test("every run adds a latency reading to the sparkline", async (t) => {
  const ext = await load("ipinfo", "connected");
  t.after(() => ext.dispose());
  await ext.run("launch");
  await ext.clock.advance("10m");
  assert.deepEqual((ext.blip("latency")?.data as { series: number[] }).series, [12.467, 12.467, 12.467]);
});

test("VPNs down and every ping lost: said plainly", async (t) => {
  const ext = await load("ipinfo", "disconnected");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const vpn = ext.blip("vpn");
  assert.equal(vpn?.state, "idle");
  assert.equal(vpn?.icon, "shield.slash");
  assert.deepEqual(vpn?.data, { value: "Down", label: "Tailscale off" });
  const latency = ext.blip("latency");
  assert.equal(latency?.state, "failure");
  assert.deepEqual(latency?.data, { value: "No reply", label: "3 pings to 1.1.1.1 lost" });
});

test("no tailscale, nmcli or ping on the machine: each blip says what to install", async (t) => {
  const ext = await load("ipinfo", "bare");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(ext.blip("vpn")?.data, {
    value: "No VPN tool found",
    label: "Install Tailscale or NetworkManager (nmcli) to see VPN state",
  });
  assert.deepEqual(ext.blip("latency")?.data, {
    value: "ping is not installed",
    label: "Install ping (iputils-ping) to measure latency",
  });
  // The public address does not need them.
  assert.equal((ext.blip("ip")?.data as { value: string }).value, "8.8.8.8");
});

test("latency is measured to the resolver the person picks, losses shown", async (t) => {
  const ext = await load("ipinfo", "connected", { pingTarget: "9.9.9.9" });
  t.after(() => ext.dispose());
  await ext.run("launch");
  const latency = ext.blip("latency");
  assert.equal(latency?.state, "warning");
  assert.deepEqual(latency?.data, {
    value: { type: "number", value: 21.1, unit: "ms" },
    label: "to 9.9.9.9 · 33% lost",
    series: [21.05],
  });
});

test("rate limited: backs off without asking again too soon, while VPN and latency keep their schedule", async (t) => {
  const ext = await load("ipinfo-rate-limited", "connected");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const limited = ext.blip("ip");
  assert.equal(limited?.state, "warning");
  assert.equal((limited?.data as { value: { value: string } }).value.value, "Rate limited");
  assert.match(String((limited?.data as { label: string }).label), /^Trying again in \d+s$/);
  const retryAt = (await ext.storage.get("ip.retryAt")) as number;
  const wait = retryAt - ext.clock.now();
  // backoff(0) with a 30 s base: 15 to 30 s.
  assert.ok(wait >= 15_000 && wait <= 30_000, `waits ${wait} ms`);
  // The next run comes when the wait is over, so the label holds.
  assert.equal(ext.nextRunAt, retryAt);
  // Asked again before then (a manual run), it does not call: the blip still says rate limited.
  await ext.clock.advance(wait - 1_000);
  await ext.run();
  assert.equal(ext.blip("ip")?.state, "warning");
  assert.equal(ext.blip("vpn")?.state, "success");
  assert.equal(ext.nextRunAt, retryAt);
  await ext.clock.advance("1s");
  assert.deepEqual(ext.blip("ip")?.data, { value: "8.8.8.8", label: "United States · Mountain View" });
  assert.equal(await ext.storage.get("ip.failures"), undefined);
});

test("the service down: a connection blip, not an old address", async (t) => {
  const ext = await load("ipinfo-unavailable", "connected");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const ip = ext.blip("ip");
  assert.equal(ip?.title, "Public IP");
  assert.equal(ip?.state, "warning");
  assert.equal((ip?.data as { value: { value: string } }).value.value, "Service unavailable (503)");
  assert.equal(ext.blips.filter((b) => b.id.endsWith("/ip")).length, 1);
});

test("a Retry-After is honoured to the second, and said on the blip", async (t) => {
  const ext = await load("ipinfo-retry-after", "connected");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal((ext.blip("ip")?.data as { label: string }).label, "Trying again in 2m");
  assert.equal(await ext.storage.get("ip.retryAt"), ext.clock.now() + 120_000);
  // The next run is when the wait is over, and the address is back.
  assert.equal(ext.nextRunAt, ext.clock.now() + 120_000);
  await ext.clock.advance("2m");
  assert.deepEqual(ext.blip("ip")?.data, { value: "8.8.8.8", label: "United States · Mountain View" });
});

test("the country is named in the person's language", async (t) => {
  const ext = await loadExtension(".", {
    recording: "test/recordings/ipinfo.json",
    programs: "test/recordings/bare.programs.json",
    locale: "de-DE",
  });
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(ext.blip("ip")?.data, { value: "8.8.8.8", label: "Vereinigte Staaten · Mountain View" });
});
