// One extension's log and denial flood against everything else (issue 31): the latency of
// `GET /v1/health` and of another extension's blip reaching the page's feed (webhook → onEvent →
// ctx.emit → runtime → store → UI feed), first with the host quiet, then while bench.flood logs
// and is denied in a tight loop with the largest manifest allowed (bench/lib/flood-world.mjs).
// Both phases run in the same host in the same run; the headlines are ratios of medians
// (flood / quiet) and the medians under flood against the 100 ms budget.
// Run: `node bench/flood.mjs` (after `npx tsc -b`). BENCH_QUICK=1: fewer probes.
import { LIMITS } from "@svc/api";
import { once } from "node:events";
import { join } from "node:path";
import { connectFloodClient, writeFloodExtensions } from "./lib/flood-world.mjs";
import { startJsonHost } from "./lib/json-host.mjs";
import { headline, saveResult } from "./lib/results.mjs";
import { runIfScript } from "./lib/script.mjs";
import { tempDir } from "./lib/temp.mjs";
import { fmt, median, printTable, quantile } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const PROBES = quick ? 15 : 60;
const BUDGET_MS = 100;

async function probe(client, count) {
  const health = [];
  const blip = [];
  for (let i = 0; i < count; i++) {
    health.push(await client.healthMs());
    blip.push(await client.blipMs());
  }
  return { health, blip };
}

export async function main() {
  const root = tempDir("svc-bench-flood-");
  const bundled = join(root, "bundled");
  writeFloodExtensions(bundled, LIMITS);
  const host = await startJsonHost(root, bundled, "watching");
  const client = await connectFloodClient(host);
  try {
    await probe(client, 3); // warm-up: first runs compile and load
    const quiet = await probe(client, PROBES);
    const before = { ...client.counts };
    const started = performance.now();
    await client.flood(600);
    // Let the flood reach full speed before probing.
    await client.next(
      (e) => e.type === "extensions" && e.extensions.some((x) => x.id === "bench.flood" && x.denials.length > 0),
    );
    const flood = await probe(client, PROBES);
    const seconds = (performance.now() - started) / 1000;
    const rows = [];
    const headlines = [];
    for (const what of ["health", "blip"]) {
      const q = median(quiet[what]);
      const f = median(flood[what]);
      rows.push({
        figure: what === "health" ? "GET /v1/health" : "another extension's blip on the page",
        "quiet p50 ms": fmt(q, 2),
        "flood p50 ms": fmt(f, 2),
        "flood p90 ms": fmt(quantile(flood[what], 0.9), 2),
        "flood / quiet": fmt(f / q, 2),
      });
      headlines.push(headline(`${what} p50 under flood`, f, "ms", { max: BUDGET_MS }));
      headlines.push(headline(`${what} p50 flood / quiet`, f / q, "×"));
    }
    printTable(`one extension flooding (${PROBES} probes each, medians)`, rows);
    const extensionsPerSecond = (client.counts.extensions - before.extensions) / seconds;
    const feedKBPerSecond = (client.counts.bytes - before.bytes) / 1024 / seconds;
    console.log(
      `while flooding: ${fmt(extensionsPerSecond, 1)} extensions updates/s on the feed, ${fmt(feedKBPerSecond, 0)} KB/s of feed`,
    );
    saveResult("flood", { headlines, details: { quiet, flood, extensionsPerSecond, feedKBPerSecond } });
  } finally {
    client.close();
    // Gone before the temp folder is removed at exit (it writes there as it stops).
    const exited = once(host.child, "exit");
    host.child.kill("SIGTERM");
    await exited;
  }
}

runIfScript(import.meta.url, main);
