/**
 * Node's module compile cache (launch-options.ts): the runtime started as svc-host starts it keeps
 * the compiled form of its own modules in `Data/.node-compile-cache` (Node 22.1 and later write it;
 * Node 20 ignores the setting and writes nothing anywhere), and a cache damaged on disk does not
 * stop the next launch.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlipUpdate, ExtensionRun, Shutdown, nodeCompileCacheDir, runtimeEnvironment } from "@svc/runtime";
import { tempRoot } from "./harness/fixtures.js";
import { loadFixture, startRuntime } from "./harness/setup.js";

const ID = "com.example.compile-cache";
/** This Node keeps a compile cache (22.1 and later): scripts/test-on-node.sh 24 runs this file there. */
const nodeCompiles = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => statSync(join(dir, name)).isFile());
}

/** One launch as the host makes it: initialize, load, run, the blip, shutdown. */
async function launchOnce(root: ReturnType<typeof tempRoot>, env: Record<string, string>, seq: number) {
  const started = await startRuntime(env, root);
  await loadFixture(started, "blips", ID);
  await started.runtime.call(ExtensionRun, { id: ID, trigger: { type: "manual" } });
  expect(started.runtime.notifications(BlipUpdate).map((update) => update.payload.seq)).toEqual([seq]);
  await started.runtime.call(Shutdown, {});
  expect(await started.runtime.exited).toEqual({ code: 0, signal: null });
  return started.runtime.stderr;
}

describe("Node's compile cache of the runtime's own code", () => {
  it("is written inside the data folder and nowhere else; a corrupt one does not stop the next launch", async () => {
    const root = tempRoot();
    // Node's own default place is the temp folder: a fresh one shows nothing went there.
    const temp = mkdtempSync(join(tmpdir(), "svc-compile-cache-tmp-"));
    const env = runtimeEnvironment(
      { TMPDIR: temp, NODE_COMPILE_CACHE: join(temp, "the-person's") },
      process.platform,
      root.data,
    ) as Record<string, string>;
    expect(env.NODE_COMPILE_CACHE).toBe(join(root.data, ".node-compile-cache"));

    await launchOnce(root, env, 1);
    const cache = nodeCompileCacheDir(root.data);
    const written = filesUnder(cache);
    expect(written.length > 0).toBe(nodeCompiles);
    expect(existsSync(join(temp, "node-compile-cache"))).toBe(false);
    expect(existsSync(join(temp, "the-person's"))).toBe(false);
    expect(readdirSync(root.root).sort()).toEqual(["Data", "Extensions"]);

    // Every file of the cache overwritten with garbage: Node must recompile, not fail.
    for (const name of written) writeFileSync(join(cache, name), "not a code cache");
    const stderr = await launchOnce(root, env, 2);
    expect(stderr).not.toMatch(/uncaught|unhandled/);
  });
});
