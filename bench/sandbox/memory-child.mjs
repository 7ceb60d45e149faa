// One memory configuration in a fresh process: `node --expose-gc memory-child.mjs <design> <n>`.
// Prints one JSON line: RSS after n idle extensions minus RSS before the first, per extension.
// For the sandbox design the pool and its sandbox threads start BEFORE the baseline reading, so the
// figure is what each extension adds to a running runtime; the worker design has no shared part.
// gc: this thread, each baseline worker and each of the pool's sandbox threads collect. The pool
// keeps one spare instance per sandbox thread (made when idle): it is in both readings, as it is
// part of a running runtime, so the figure is what one more extension adds.
import { setTimeout as sleep } from "node:timers/promises";
import { WorkerExtension } from "../baseline/worker-design.mjs";
import { buildFixture } from "../build-fixture.mjs";
import { UPDATE, startSandbox, warmPool } from "../lib/sandbox-design.mjs";

const [design, countText] = process.argv.slice(2);
const count = Number(countText);
const CONCURRENCY = 4;
const IDLE_MS = 1000;

async function settledRss(extensions) {
  // Idle means the pool's background work is done too: bundles compiled for its code cache.
  for (let waited = 0; pool && waited < 60_000; waited += 100) {
    if ((await pool.stats()).every((thread) => thread.compiling === 0)) break;
    await sleep(100);
  }
  for (let i = 0; i < 3; i++) {
    for (const extension of extensions) extension.collectGarbage?.();
    await pool?.stats({ collectGarbage: true });
    globalThis.gc();
    await sleep(IDLE_MS / 3);
  }
  return process.memoryUsage().rss;
}

/** Starts `count` extensions, a few at a time, each loaded and run once, then left idle. */
async function startAll(start) {
  const extensions = [];
  for (let i = 0; i < count; i += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, count - i) }, () => start());
    extensions.push(...(await Promise.all(batch)));
  }
  return extensions;
}

const code = buildFixture("zod-datefns", { svckit: true });
let pool;
if (design === "sandbox") pool = await warmPool();
const before = await settledRss([]);
const extensions =
  design === "sandbox"
    ? await startAll(async () => {
        const handle = await startSandbox(pool, code);
        await handle.invoke(UPDATE);
        return handle;
      })
    : await startAll(async () => {
        const extension = await WorkerExtension.start(code);
        await extension.update();
        return extension;
      });
const after = await settledRss(extensions);
process.stdout.write(JSON.stringify({ design, count, before, after, perExtension: (after - before) / count }) + "\n");
process.exit(0);
