// Where one extension's runtime keeps its resident memory: svc-runtime and the worker design, each
// with N extensions of `fixtures/scale` (default 1), --settle s after launch (default 30), its
// /proc/<pid>/smaps summed by kind of mapping. Linux only; a lead-finder, not a target.
// Run: `node bench/rss-parts.mjs [--n 1] [--settle 30]` (after `npx tsc -b`).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "../runtime/dist/launch-options.js";
import { bundleEntry } from "./lib/bundle-extension.mjs";
import { DESIGNS, launch, makeWorld } from "./launch.mjs";
import { runIfScript } from "./lib/script.mjs";

const { values: flags } = parseArgs({
  options: { n: { type: "string", default: "1" }, settle: { type: "string", default: "30" } },
});

/** Resident kB of a process's mappings, by kind. */
function residentByKind(pid) {
  const kinds = {};
  let kind = "other";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, perms, path] = head;
      kind = path.startsWith("/")
        ? `file ${path.split("/").at(-1)} ${perms.includes("x") ? "code" : "data"}`
        : path === "[heap]"
          ? "malloc heap ([heap])"
          : path.startsWith("[stack")
            ? "stacks"
            : perms.includes("x")
              ? "anonymous executable (JIT and wasm code)"
              : path
                ? path
                : "anonymous (V8 heaps, thread arenas, WebAssembly memories)";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]);
  }
  return kinds;
}

async function measure(name, main, args, env, code, count, settleMs) {
  const world = makeWorld(code, count);
  let parts;
  await launch(main, world, {
    settleMs: 0,
    args,
    env: typeof env === "function" ? env(world) : env,
    beforeClose: async (rt) => {
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      parts = residentByKind(rt.pid);
    },
  });
  return { name, parts };
}

async function main() {
  const code = await bundleEntry(fileURLToPath(new URL("./fixtures/scale/src/index.ts", import.meta.url)));
  const count = Number(flags.n);
  const settleMs = Number(flags.settle) * 1000;
  const svcEnv = (world) => runtimeEnvironment({}, process.platform, world.dataDir);
  const rows = [
    await measure("svc-runtime", DESIGNS["svc-runtime"], RUNTIME_NODE_FLAGS, svcEnv, code, count, settleMs),
    await measure("worker", DESIGNS.worker, [], {}, code, count, settleMs),
  ];
  const kinds = [...new Set(rows.flatMap((r) => Object.keys(r.parts)))];
  const total = (r) => Object.values(r.parts).reduce((a, b) => a + b, 0);
  kinds.sort((a, b) => Math.max(...rows.map((r) => r.parts[b] ?? 0)) - Math.max(...rows.map((r) => r.parts[a] ?? 0)));
  console.log(`resident MB by kind of mapping, N = ${count}, ${flags.settle} s after launch`);
  console.log(["kind", ...rows.map((r) => r.name)].join(" | "));
  for (const kind of kinds) {
    const cells = rows.map((r) => ((r.parts[kind] ?? 0) / 1024).toFixed(1));
    if (cells.some((c) => Number(c) >= 0.5)) console.log([kind, ...cells].join(" | "));
  }
  console.log(["total", ...rows.map((r) => (total(r) / 1024).toFixed(1))].join(" | "));
}

runIfScript(import.meta.url, main);
