// svc-runtime's throughput beside a worker-thread runtime doing the same work, in one run:
// blip updates per second from one extension through validation to stdout (1 KB and 4 KB
// payloads), and tool.run round trips. Both are real processes driven over their pipes with
// NDJSON JSON-RPC. Run: `node bench/runtime-throughput.mjs` (after `npx tsc -b`).
import { fileURLToPath } from "node:url";
import { bundleExtension } from "./lib/bundle-extension.mjs";
import { headline, saveResult } from "./lib/results.mjs";
import { runIfScript } from "./lib/script.mjs";
import { RpcProcess } from "./lib/rpc-client.mjs";
import { interleave } from "./lib/trials.mjs";
import { fmt, printTable, quantile, summarize } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const RUNTIMES = {
  "svc-runtime": fileURLToPath(new URL("../runtime/dist/bundle/main.js", import.meta.url)),
  "worker baseline": fileURLToPath(new URL("./baseline/worker-runtime.mjs", import.meta.url)),
};
const BURSTS = [
  { name: "1 KB, up to 64 emits in flight", bytes: 1024, window: 64, n: quick ? 1000 : 3000 },
  { name: "4 KB, up to 64 emits in flight", bytes: 4000, window: 64, n: quick ? 1000 : 3000 },
  { name: "1 KB, each emit awaited", bytes: 1024, window: 1, n: quick ? 300 : 1000 },
];

/** Starts one runtime with the fixture loaded; counts its blip.update lines. */
async function startRuntime(main, name) {
  const extension = await bundleExtension("throughput", "bench.throughput");
  const rt = new RpcProcess(process.execPath, [main]);
  const seen = { updates: 0, lastPayloadBytes: 0, dropped: 0 };
  rt.on("blip.update", (params) => {
    seen.updates++;
    seen.lastPayloadBytes = Buffer.byteLength(JSON.stringify(params.payload));
  });
  rt.on("log", (params) => {
    if (params.level === "error") seen.dropped++;
  });
  await rt.call("initialize", { protocolVersion: 1, dataDir: extension.dataDir, locale: "en-GB", timeZone: "UTC" });
  await rt.call("extension.load", {
    id: extension.id,
    path: extension.path,
    manifest: extension.manifest,
    preferences: {},
  });
  return { name, rt, seen, extension };
}

/** Updates per second for one burst; checks every update arrived. */
async function burst({ rt, seen, extension }, { bytes, window, n }) {
  const before = seen.updates;
  const start = performance.now();
  await rt.call("extension.action", {
    id: extension.id,
    blipId: `${extension.id}/b0`,
    actionId: "burst",
    input: { n, bytes, window },
  });
  const seconds = (performance.now() - start) / 1000;
  const got = seen.updates - before;
  if (got !== n) throw new Error(`expected ${n} blip.update lines, got ${got} (dropped: ${seen.dropped})`);
  return n / seconds;
}

/** Latencies (ms) of `count` sequential tool.run calls. */
async function toolRoundTrips({ rt, extension }, count) {
  const latencies = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await rt.call("tool.run", {
      id: extension.id,
      tool: "upper",
      action: "go",
      values: { text: `hello ${i}` },
    });
    latencies.push(performance.now() - start);
    if (result.blocks[1]?.text !== `HELLO ${i}`) throw new Error(`unexpected tool result ${JSON.stringify(result)}`);
  }
  return latencies;
}

async function main() {
  console.log("## runtime throughput: svc-runtime vs a worker-thread runtime\n");
  const runtimes = [];
  for (const [name, main] of Object.entries(RUNTIMES)) runtimes.push(await startRuntime(main, name));
  const [svc, baseline] = runtimes;
  console.log(`fixture bundle: ${fmt(svc.extension.bundleBytes / 1024)} KB (@svc/api inlined, side-effect free)`);
  const both = (fn) => ({ [svc.name]: () => fn(svc), [baseline.name]: () => fn(baseline) });

  const bursts = [];
  for (const config of BURSTS) {
    const samples = await interleave(
      both((r) => burst(r, config)),
      quick ? 2 : 5,
    );
    const payloadBytes = svc.seen.lastPayloadBytes;
    const s = summarize(samples[svc.name]);
    const b = summarize(samples[baseline.name]);
    bursts.push({ ...config, payloadBytes, svc: s, baseline: b, ratio: s.median / b.median });
  }
  printTable(
    "validated blip.update lines per second (medians)",
    bursts.map((r) => ({
      burst: r.name,
      "payload bytes": r.payloadBytes,
      "svc-runtime": fmt(r.svc.median, 0),
      "worker baseline": fmt(r.baseline.median, 0),
      "ratio (svc ÷ baseline)": fmt(r.ratio, 2),
    })),
  );

  const tool = await interleave(
    both((r) => toolRoundTrips(r, quick ? 50 : 150)),
    quick ? 2 : 4,
  );
  const toolRow = (name) => ({
    runtime: name,
    p50: fmt(quantile(tool[name], 0.5), 2),
    p99: fmt(quantile(tool[name], 0.99), 2),
    n: tool[name].length,
  });
  printTable("tool.run round trip, small local tool (ms)", [toolRow(svc.name), toolRow(baseline.name)]);
  for (const r of runtimes) await r.rt.close();

  const toolP50 = quantile(tool[svc.name], 0.5);
  const headlines = [
    ...bursts.map((r) =>
      headline(`svc-runtime updates/s, ${r.name}`, r.svc.median, "/s", r.bytes === 1024 ? { min: 2000 } : undefined),
    ),
    // Issue 17's crossing target: awaited updates per second at least the worker design's.
    ...bursts.map((r) =>
      headline(`svc-runtime ÷ worker baseline, ${r.name}`, r.ratio, "×", r.window === 1 ? { min: 1 } : undefined),
    ),
    headline("svc-runtime tool.run p50", toolP50, "ms", { below: 2 }),
    headline("svc-runtime tool.run p99", quantile(tool[svc.name], 0.99), "ms"),
    headline("worker baseline tool.run p50", quantile(tool[baseline.name], 0.5), "ms"),
  ];
  const file = saveResult("runtime-throughput", {
    fixtureBundleBytes: svc.extension.bundleBytes,
    headlines,
    bursts,
    tool: Object.fromEntries(
      runtimes.map((r) => [
        r.name,
        {
          p50: quantile(tool[r.name], 0.5),
          p90: quantile(tool[r.name], 0.9),
          p99: quantile(tool[r.name], 0.99),
          n: tool[r.name].length,
        },
      ]),
    ),
  });
  console.log(`\nresults: ${file}`);
}

runIfScript(import.meta.url, main);
