// The cost of the guest's host-backed Intl and crypto.subtle: each operation timed inside a
// sandbox (QuickJS → bridge → Node's Intl/WebCrypto → back) and the same operation done by
// Node directly, interleaved round by round in this process; medians of the rounds' per-call
// times, and the ratio. Targets: a reused formatter formats in ≤ 100 µs (so ordinary
// formatting stays far inside one 1 s slice); a subtle operation on 1 KB completes in ≤ 1 ms.
// Run: `node bench/compat.mjs` (after `npx tsc -b`). BENCH_QUICK=1: fewer rounds.
import { webcrypto } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Sandbox } from "../sandbox/dist/index.js";
import { headline, saveResult } from "./lib/results.mjs";
import { fmt, median, printTable } from "./stats.mjs";

const quick = process.env.BENCH_QUICK === "1";
const ROUNDS = quick ? 3 : 9;
const N_INTL = quick ? 200 : 1000;
const N_SUBTLE = quick ? 50 : 200;

/** Each operation as the body of a loop over `i`, with its setup; the same text runs in the guest and in Node. */
const OPERATIONS = {
  "Intl.NumberFormat#format (reused)": {
    kind: "intl",
    setup: `const nf = new Intl.NumberFormat("de-DE", { maximumFractionDigits: 2 });`,
    body: `nf.format(i * 1.25)`,
  },
  "Number#toLocaleString('de-DE')": { kind: "intl", setup: ``, body: `(i * 1.25).toLocaleString("de-DE")` },
  "Intl.DateTimeFormat#format (time zone)": {
    kind: "intl",
    setup: `const dtf = new Intl.DateTimeFormat("en-GB", { timeZone: "America/New_York", dateStyle: "medium", timeStyle: "short" });`,
    body: `dtf.format(1.7e12 + i * 60000)`,
  },
  "Intl.DateTimeFormat#formatToParts": {
    kind: "intl",
    setup: `const dtp = new Intl.DateTimeFormat("en-US", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" });`,
    body: `dtp.formatToParts(1.7e12 + i * 60000)`,
  },
  "String#localeCompare": { kind: "intl", setup: ``, body: `("item" + i).localeCompare("item" + (i + 1))` },
  "crypto.subtle.digest SHA-256, 1 KB": {
    kind: "subtle",
    setup: `const data = new Uint8Array(1024).fill(7);`,
    body: `await crypto.subtle.digest("SHA-256", data)`,
  },
  "crypto.subtle.sign HMAC, 1 KB": {
    kind: "subtle",
    setup: `const data = new Uint8Array(1024).fill(7); const key = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);`,
    body: `await crypto.subtle.sign("HMAC", key, data)`,
  },
  "crypto.subtle.encrypt AES-GCM, 1 KB": {
    kind: "subtle",
    setup: `const data = new Uint8Array(1024).fill(7); const key = await crypto.subtle.importKey("raw", new Uint8Array(32), "AES-GCM", false, ["encrypt"]); const iv = new Uint8Array(12);`,
    body: `await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, data)`,
  },
  "crypto.subtle.importKey raw HMAC": {
    kind: "subtle",
    setup: `const raw = new Uint8Array(32).fill(1);`,
    body: `await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])`,
  },
};

/** An async function timing `n` runs of each operation, in µs per call. */
function timingSource(n) {
  const parts = Object.entries(OPERATIONS).map(
    ([name, op]) => `
    out[${JSON.stringify(name)}] = await (async () => {
      ${op.setup}
      const count = ${op.kind === "intl" ? n.intl : n.subtle};
      for (let i = 0; i < 20; i++) { ${op.body}; }
      const start = performance.now();
      for (let i = 0; i < count; i++) { ${op.body}; }
      return ((performance.now() - start) * 1000) / count;
    })();`,
  );
  return `async function measure() { const out = {}; ${parts.join("\n")} return out; }`;
}

const source = timingSource({ intl: N_INTL, subtle: N_SUBTLE });
const sandbox = await Sandbox.create(
  {
    id: "bench.compat",
    code: `${source}\nmodule.exports = { update: () => measure() };`,
    permissions: { network: [], files: [], exec: [] },
    dataDir: mkdtempSync(join(tmpdir(), "svc-bench-compat-")),
    limits: { sliceMs: 60_000 },
  },
  { forwarded: { forward: async () => null } },
);
await sandbox.load();
const inNode = new Function("crypto", `${source}\nreturn measure;`)(webcrypto);

const samples = Object.fromEntries(Object.keys(OPERATIONS).map((name) => [name, { guest: [], node: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  const guest = await sandbox.invoke({ kind: "update", ctx: { preferences: {} } });
  const node = await inNode();
  for (const name of Object.keys(OPERATIONS)) {
    samples[name].guest.push(guest[name]);
    samples[name].node.push(node[name]);
  }
}
await sandbox.dispose();

const rows = [];
const details = {};
const headlines = [];
for (const [name, op] of Object.entries(OPERATIONS)) {
  const guest = median(samples[name].guest);
  const node = median(samples[name].node);
  details[name] = { guestUs: guest, nodeUs: node, samples: samples[name] };
  const target = op.kind === "intl" ? { max: 100 } : { max: 1000 };
  const pass = guest <= target.max;
  rows.push({
    operation: name,
    "sandbox µs": fmt(guest, 1),
    "Node µs": fmt(node, 2),
    ratio: `${fmt(guest / node, 0)}×`,
    target: `≤ ${target.max} µs`,
    verdict: pass ? "PASS" : "MISS",
  });
  headlines.push(headline(`${name} in the sandbox`, guest, "µs", target));
}
printTable(
  `Intl and crypto.subtle crossings (median of ${ROUNDS} rounds; ${N_INTL} Intl / ${N_SUBTLE} subtle calls a round)`,
  rows,
);
saveResult("compat", { headlines, details });
