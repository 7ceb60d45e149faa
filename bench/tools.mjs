// `POST /v1/tools/…` on loopback: the latency of a small local tool run through the real
// svc-host and svc-runtime (HTTP guards, the host's value checks, JSON-RPC to the runtime, the
// QuickJS sandbox, the result checks and the host's path fence), against `GET /v1/health` on the
// same server in the same run, interleaved (the floor: what loopback HTTP and express cost).
// The tools are the bundled developer tools: JSON format (a 60-byte document), UUID v4, and
// JSON format of a 100 KB document. One request at a time, as the notch and a script make them.
// Run: `node bench/tools.mjs` (after `npm run build`). BENCH_QUICK=1: fewer rounds.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { headline, saveResult } from "./lib/results.mjs";
import { tempDir } from "./lib/temp.mjs";
import { fmt, printTable, quantile } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const ROUNDS = quick ? 60 : 400;
const WARMUP = quick ? 10 : 40;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HOST_MAIN = join(ROOT, "host", "dist", "main.js");
const TOOLS = "dev.svc.devtools";

if (!existsSync(join(ROOT, "extensions", "devtools", "dist", "tools.json"))) {
  console.error("bench/tools: extensions/devtools is not built; run `npm run build` first");
  process.exit(1);
}

/** Starts svc-host with only the bundled extensions; resolves once the devtools' code has loaded. */
function startHost() {
  const home = tempDir("svc-bench-tools-");
  const child = spawn(process.execPath, [HOST_MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SVC_HOME: join(home, "support"),
      SVC_PORT: "0",
      SVC_HOST_OUTPUT: "json",
      SVC_BUNDLED_EXTENSIONS: join(ROOT, "extensions"),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.once("exit", (code) => reject(new Error(`svc-host exited with ${code}`)));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) {
        const event = JSON.parse(line);
        if (event.type === "extension.tools" && event.id === TOOLS) {
          const { port, token } = JSON.parse(readFileSync(join(home, "support", "webhook.json"), "utf8"));
          resolve({
            port,
            token,
            stop: () =>
              new Promise(
                (done) => (child.removeAllListeners("exit"), child.once("exit", done), child.kill("SIGTERM")),
              ),
          });
        }
      }
    });
  });
}

const SMALL_JSON = JSON.stringify({ values: { input: '{"name":"svc","tools":["json","jwt"],"ok":true}' } });
const BIG_JSON = JSON.stringify({
  values: {
    input: JSON.stringify(
      Array.from({ length: 1600 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"], ok: i % 2 === 0 })),
    ),
  },
});

async function timed(server, method, path, body) {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return ms;
}

const CASES = [
  { name: "GET /v1/health (floor)", run: (s) => timed(s, "GET", "/v1/health") },
  { name: "POST /v1/tools/…/json (60 B)", run: (s) => timed(s, "POST", `/v1/tools/${TOOLS}/json`, SMALL_JSON) },
  { name: "POST /v1/tools/…/uuid", run: (s) => timed(s, "POST", `/v1/tools/${TOOLS}/uuid`, "{}") },
  { name: "POST /v1/tools/…/json (100 KB)", run: (s) => timed(s, "POST", `/v1/tools/${TOOLS}/json`, BIG_JSON) },
];

const server = await startHost();
const samples = CASES.map(() => []);
try {
  for (let i = 0; i < WARMUP; i++) for (const c of CASES) await c.run(server);
  // Interleaved: each round runs every case once, so the machine's noise falls on all alike.
  for (let i = 0; i < ROUNDS; i++) for (const [k, c] of CASES.entries()) samples[k].push(await c.run(server));
} finally {
  await server.stop();
}

const rows = CASES.map((c, k) => ({
  request: c.name,
  "p50 ms": fmt(quantile(samples[k], 0.5), 2),
  "p90 ms": fmt(quantile(samples[k], 0.9), 2),
  "p99 ms": fmt(quantile(samples[k], 0.99), 2),
  "p50 − floor ms": k === 0 ? "" : fmt(quantile(samples[k], 0.5) - quantile(samples[0], 0.5), 2),
}));
console.log(`## Tool runs over /v1 (${ROUNDS} interleaved rounds after ${WARMUP} warm-up, one request at a time)`);
printTable("latency", rows);

const p50 = (k) => quantile(samples[k], 0.5);
const headlines = [
  headline("POST /v1/tools small local tool (JSON format) p50", p50(1), "ms"),
  headline("POST /v1/tools small local tool p99", quantile(samples[1], 0.99), "ms"),
  headline("POST /v1/tools small tool p50 ÷ GET /v1/health p50", p50(1) / p50(0), "×"),
  headline("POST /v1/tools JSON format of 100 KB p50", p50(3), "ms"),
];
saveResult("tools", { headlines, rounds: ROUNDS, rows });
