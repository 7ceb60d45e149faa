// `POST /v1/blips` on loopback: requests and payloads per second, p50/p99 latency, for single
// pushes and batches of 10, against the host's real HTTP server (guards, bearer token, JSON
// body, validation and truncation, the blip store) and, in the same run, a bare express app
// answering 200 to the same request (the floor: what HTTP + express + JSON parsing cost alone).
// Each server runs in its own process; autocannon drives it from this one (2 cores: one each).
// Run: `node bench/http-push.mjs` (after `npx tsc -b`). BENCH_QUICK=1: 3 s per measurement.
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { headline, saveResult } from "./lib/results.mjs";
import { fmt, printTable } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const DURATION_S = quick ? 3 : 10;
const WARMUP_S = quick ? 1 : 2;
const CONNECTIONS = 10;
const BATCH = 10;
const SERVER = fileURLToPath(new URL("./http/push-server.mjs", import.meta.url));

/** A progress payload like a CI job would push (~150 bytes as JSON). */
function payload(id, n) {
  return {
    id,
    title: `Deploy ${id}`,
    icon: "shippingbox",
    state: "running",
    layout: "progress",
    data: { fraction: (n % 100) / 100, step: `Step ${n % 7}` },
  };
}

/** Request bodies cycling over 100 blip ids (each push updates one of them in place). */
function bodies(batch) {
  const list = [];
  for (let i = 0; i < 100; i++) {
    const items = Array.from({ length: batch }, (_, j) => payload(`bench-${batch}-${(i * batch + j) % 100}`, i + j));
    list.push(JSON.stringify(batch === 1 ? items[0] : items));
  }
  return list;
}

function startServer(kind) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER, kind], { stdio: ["ignore", "pipe", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
    child.stdout.setEncoding("utf8");
    child.stdout.once("data", (line) => {
      const { port, token } = JSON.parse(line);
      resolve({
        port,
        token,
        stop: () =>
          new Promise((done) => (child.removeAllListeners("exit"), child.once("exit", done), child.kill("SIGTERM"))),
      });
    });
  });
}

function load(server, batch, seconds) {
  const list = bodies(batch);
  let n = 0;
  return autocannon({
    url: `http://127.0.0.1:${server.port}/v1/blips`,
    method: "POST",
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    requests: [{ setupRequest: (req) => ({ ...req, body: list[n++ % list.length] }) }],
  });
}

async function measure(kind, batch) {
  const server = await startServer(kind);
  try {
    await load(server, batch, WARMUP_S);
    const r = await load(server, batch, DURATION_S);
    if (r.non2xx > 0 || r.errors > 0)
      throw new Error(`${kind}, batch ${batch}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
    return {
      kind,
      batch,
      requestsPerS: r.requests.average,
      payloadsPerS: r.requests.average * batch,
      p50: r.latency.p50,
      p99: r.latency.p99,
      total: r.requests.total,
    };
  } finally {
    await server.stop();
  }
}

console.log(
  `## POST /v1/blips on loopback (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up)\n`,
);
const results = [];
for (const batch of [1, BATCH]) for (const kind of ["baseline", "svc"]) results.push(await measure(kind, batch));
const find = (kind, batch) => results.find((r) => r.kind === kind && r.batch === batch);

printTable(
  "requests and payloads per second, latency",
  results.map((r) => ({
    server: r.kind === "svc" ? "svc-host HTTP server" : "bare express (floor)",
    request: r.batch === 1 ? "1 payload" : `array of ${r.batch}`,
    "requests/s": fmt(r.requestsPerS, 0),
    "payloads/s": fmt(r.payloadsPerS, 0),
    "p50 ms": fmt(r.p50, 1),
    "p99 ms": fmt(r.p99, 1),
    "svc ÷ floor": r.kind === "svc" ? fmt(r.requestsPerS / find("baseline", r.batch).requestsPerS, 2) : "",
  })),
);

const single = find("svc", 1);
const batched = find("svc", BATCH);
const headlines = [
  headline("HTTP single pushes per second", single.requestsPerS, "/s", { min: 5000 }),
  headline("HTTP single push p99", single.p99, "ms"),
  headline(`HTTP payloads per second in batches of ${BATCH}`, batched.payloadsPerS, "/s"),
  headline("HTTP single push throughput ÷ bare express", single.requestsPerS / find("baseline", 1).requestsPerS, "×"),
];
saveResult("http-push", { headlines, results, connections: CONNECTIONS, durationS: DURATION_S });
