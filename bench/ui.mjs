// The notch UI against its targets (issue 18), with the real host and the page in Debian's
// Chromium (playwright-core, executablePath; never a browser download):
//   - first paint after the one-time URL opens (navigation start → first snapshot drawn) ≤ 150 ms
//   - a panel of 50 blips laid out (snapshot in → rendered and laid out) ≤ 100 ms
//   - a ticking countdown left idle: CPU of the page (renderer tasks) and of the host < 1% of a core
//   - a blip update reaching the page, from `POST /v1/blips` sent to the page's feed handler, p99 ≤ 20 ms
// Run: `node bench/ui.mjs` (after `npm run build`). BENCH_QUICK=1: fewer rounds, 10 s idle.
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startJsonHost } from "./lib/json-host.mjs";
import { headline, saveResult } from "./lib/results.mjs";
import { fmt, median, printTable, quantile } from "./stats.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "./lib/chromium.mjs";

const quick = process.env.BENCH_QUICK === "1";
const PAINT_ROUNDS = quick ? 5 : 15;
const LAYOUT_ROUNDS = quick ? 5 : 15;
const IDLE_S = quick ? 10 : 60;
const UPDATES = quick ? 100 : 300;

async function startHost(root) {
  const bundled = join(root, "bundled");
  mkdirSync(bundled, { recursive: true });
  return startJsonHost(root, bundled, "watching");
}

/** CPU seconds (user + system) of a process so far, from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const root = mkdtempSync(join(tmpdir(), "svc-bench-ui-"));
const host = await startHost(root);
const profile = mkdtempSync(join(tmpdir(), "svc-bench-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: CHROMIUM_ARGS,
  viewport: { width: 600, height: 900 },
});
const rows = [];
const headlines = [];
try {
  // One countdown, so every page has something ticking.
  await host.v1("/v1/blips", {
    id: "bench/timer",
    title: "Tea",
    layout: "countdown",
    data: { endsAt: new Date(Date.now() + 3_600_000).toISOString() },
  });

  // 1. First paint after the URL opens; interleaved with the floor: a blank page that only sets
  // a mark (what any navigation costs this browser on this machine right now).
  const paints = [];
  const floors = [];
  const steps = { "svc-start": [], "svc-session": [], "svc-snapshot": [] };
  for (let i = 0; i < PAINT_ROUNDS + 1; i++) {
    const page = await context.newPage();
    await page.goto(await host.ticketUrl());
    await page.waitForSelector("svc-app[data-ready]");
    const at = await page.evaluate(() => performance.getEntriesByName("svc-first-paint")[0]?.startTime);
    const marks = await page.evaluate(
      (names) => names.map((name) => performance.getEntriesByName(name)[0]?.startTime),
      Object.keys(steps),
    );
    if (i > 0) Object.keys(steps).forEach((name, j) => steps[name].push(marks[j]));
    await page.goto("data:text/html,<script>performance.mark('floor')</script>");
    const floor = await page.evaluate(() => performance.getEntriesByName("floor")[0]?.startTime);
    if (i > 0) {
      paints.push(at); // the first round warms the browser's caches
      floors.push(floor);
    }
    await page.close();
  }
  rows.push({
    figure: "first paint after the URL opens",
    median: `${fmt(median(paints))} ms`,
    p90: `${fmt(quantile(paints, 0.9))} ms`,
    target: "≤ 150 ms",
  });
  rows.push({
    figure: "  of which: script running (svc-start)",
    median: `${fmt(median(steps["svc-start"]))} ms`,
    p90: "",
    target: "",
  });
  rows.push({
    figure: "  of which: session traded (svc-session)",
    median: `${fmt(median(steps["svc-session"]))} ms`,
    p90: "",
    target: "",
  });
  rows.push({
    figure: "  of which: snapshot in (svc-snapshot)",
    median: `${fmt(median(steps["svc-snapshot"]))} ms`,
    p90: "",
    target: "",
  });
  rows.push({
    figure: "  floor: a blank page's first script",
    median: `${fmt(median(floors))} ms`,
    p90: `${fmt(quantile(floors, 0.9))} ms`,
    target: "",
  });
  headlines.push(headline("UI first paint (median)", median(paints), "ms", { max: 150 }));

  // 2. 50 blips laid out.
  const page = await context.newPage();
  await page.goto(await host.ticketUrl());
  await page.waitForSelector("svc-app[data-ready]");
  const layouts = await page.evaluate(async (rounds) => {
    const app = document.querySelector("svc-app");
    const snapshot = app.store;
    const blips = Array.from({ length: 50 }, (_, i) => {
      const kind = i % 5;
      const base = {
        id: `bench/b${i}`,
        seq: 1,
        source: "extension",
        ended: false,
        title: `Blip ${i}`,
        subtitle: "bench",
        icon: "rocket",
        state: "running",
      };
      if (kind === 0)
        return {
          ...base,
          layout: "progress",
          data: {
            fraction: 0.5,
            step: "Step",
            stages: [
              { title: "A", state: "done" },
              { title: "B", state: "running" },
            ],
          },
          actions: [{ id: "a", title: "Retry" }],
        };
      if (kind === 1)
        return {
          ...base,
          layout: "stat",
          data: { value: { type: "currency", value: { amount: i * 10, currency: "EUR" } }, series: [1, 3, 2, 5, 4, 6] },
          facts: [{ label: "x", value: 1 }],
        };
      if (kind === 2)
        return {
          ...base,
          layout: "list",
          data: {
            items: [
              { id: "r1", title: "Row", actions: [{ id: "ok", title: "OK" }] },
              { id: "r2", title: "Row 2" },
            ],
            total: 9,
          },
        };
      if (kind === 3)
        return {
          ...base,
          layout: "meter",
          data: {
            meters: [
              { label: "CPU", fraction: 0.4 },
              { label: "Disk", fraction: 0.8 },
            ],
          },
        };
      return { ...base, layout: "countdown", data: { endsAt: new Date(Date.now() + 600_000).toISOString() } };
    });
    const make = (list) => ({
      type: "snapshot",
      snapshot: {
        blips: list,
        extensions: snapshot.extensions,
        settings: snapshot.settings,
        paused: false,
        secretsAvailable: true,
      },
    });
    const times = [];
    for (let r = 0; r < rounds + 1; r++) {
      app.receive(make([]));
      await app.updateComplete;
      document.body.getBoundingClientRect();
      const t0 = performance.now();
      app.receive(make(blips));
      await app.updateComplete;
      document.body.getBoundingClientRect(); // force style and layout
      if (r > 0) times.push(performance.now() - t0);
    }
    return times;
  }, LAYOUT_ROUNDS);
  rows.push({
    figure: "50 blips laid out",
    median: `${fmt(median(layouts))} ms`,
    p90: `${fmt(quantile(layouts, 0.9))} ms`,
    target: "≤ 100 ms",
  });
  headlines.push(headline("UI 50 blips laid out (median)", median(layouts), "ms", { max: 100 }));
  await page.close();

  // 3. Idle: one ticking countdown, nothing else happening. The host's floor first: the same
  // wait with no page open.
  const hostFloor0 = [cpuSeconds(host.child.pid), performance.now()];
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const hostFloor = ((cpuSeconds(host.child.pid) - hostFloor0[0]) / ((performance.now() - hostFloor0[1]) / 1000)) * 100;
  const idle = await context.newPage();
  await idle.goto(await host.ticketUrl());
  await idle.waitForSelector("svc-app[data-ready]");
  const cdp = await context.newCDPSession(idle);
  await cdp.send("Performance.enable");
  const taskSeconds = async () =>
    (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;
  // Let the page settle, and the host finish with the pages of the steps before.
  await new Promise((r) => setTimeout(r, 5000));
  const [page0, host0, wall0] = [await taskSeconds(), cpuSeconds(host.child.pid), performance.now()];
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const wall = (performance.now() - wall0) / 1000;
  const pageShare = (((await taskSeconds()) - page0) / wall) * 100;
  const hostShare = ((cpuSeconds(host.child.pid) - host0) / wall) * 100;
  rows.push({
    figure: `idle countdown, page (${IDLE_S} s)`,
    median: `${fmt(pageShare, 2)} % of a core`,
    p90: "",
    target: "< 1 %",
  });
  rows.push({
    figure: `idle countdown, host (${IDLE_S} s)`,
    median: `${fmt(hostShare, 2)} % of a core`,
    p90: "",
    target: "< 1 %",
  });
  rows.push({
    figure: "  floor: the host idle, no page open",
    median: `${fmt(hostFloor, 2)} % of a core`,
    p90: "",
    target: "",
  });
  headlines.push(headline("UI idle countdown, page CPU", pageShare, "%", { below: 1 }));
  headlines.push(headline("UI idle countdown, host CPU", hostShare, "%", { below: 1 }));

  // 4. A blip update reaching the page.
  await idle.evaluate(() => {
    window.arrivals = new Map();
    document
      .querySelector("svc-app")
      .addEventListener("svc-blip", (e) =>
        window.arrivals.set(e.detail.seq, performance.timeOrigin + performance.now()),
      );
  });
  const sent = new Map();
  for (let seq = 1; seq <= UPDATES; seq++) {
    sent.set(seq, performance.timeOrigin + performance.now());
    await host.v1("/v1/blips", {
      id: "bench/live",
      seq,
      title: "Live",
      layout: "progress",
      data: { fraction: (seq % 100) / 100 },
    });
    await new Promise((r) => setTimeout(r, 5));
  }
  await idle.waitForFunction((n) => window.arrivals.size >= n, UPDATES);
  const arrivals = new Map(await idle.evaluate(() => [...window.arrivals]));
  const delays = [...sent].map(([seq, at]) => arrivals.get(seq) - at);
  rows.push({
    figure: "blip update → page (POST sent → feed handler)",
    median: `${fmt(median(delays), 2)} ms`,
    p90: `p99 ${fmt(quantile(delays, 0.99), 2)} ms`,
    target: "p99 ≤ 20 ms",
  });
  headlines.push(headline("UI blip update → page (p99)", quantile(delays, 0.99), "ms", { max: 20 }));
} finally {
  await context.close();
  host.child.kill("SIGTERM");
  rmSync(profile, { recursive: true, force: true });
  setTimeout(() => rmSync(root, { recursive: true, force: true }), 500);
}

printTable("notch UI", rows);
for (const h of headlines) console.log(`${h.pass ? "PASS" : "MISS"}  ${h.figure}: ${fmt(h.value, 2)} ${h.unit}`);
saveResult("ui", { headlines, rows });
