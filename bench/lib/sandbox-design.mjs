// The sandbox design, driven the same way as baseline/worker-design.mjs: one extension = one
// sandbox from a SandboxPool, created, loaded, then invoked.
import { join } from "node:path";
import { SandboxPool } from "@svc/sandbox";
import { tempDir } from "./temp.mjs";

export const UPDATE = { kind: "update", ctx: { preferences: {} } };

const dataRoot = tempDir("svc-bench-");
let nextId = 1;

/**
 * Creates and loads one sandboxed extension in `pool`.
 *
 * @example
 * const ext = await startSandbox(pool, code, { forwarded: { forward: async () => null } });
 * await ext.invoke({ kind: "update", ctx: { preferences: {} } });
 */
export async function startSandbox(pool, code, { forwarded = { forward: async () => null }, limits } = {}) {
  const id = `bench.sandbox${nextId++}`;
  const handle = await pool.create(
    {
      id,
      code,
      permissions: { network: [], files: [], exec: [] },
      dataDir: join(dataRoot, id),
      ...(limits ? { limits } : {}),
    },
    { forwarded },
  );
  await handle.load();
  return handle;
}

/**
 * A pool whose sandbox thread is already started (its WebAssembly module compiled and warmed up):
 * the runtime's steady state, where one long-lived pool serves every extension.
 *
 * @example const pool = await warmPool(); // then measure
 */
export async function warmPool(options = {}) {
  // Compiled bundles on disk, as svc-runtime keeps them (`<dataDir>/.compiled-code`).
  const pool = new SandboxPool({ compiledCodeDir: tempDir("svc-bench-compiled-"), ...options });
  // Held one after another, probes make the pool start each of its sandbox threads (default 2).
  const probes = [];
  for (let i = 0; i < (options.threads ?? 2); i++) {
    const probe = await startSandbox(pool, "module.exports = { update() { return 1; } };");
    await probe.invoke(UPDATE);
    probes.push(probe);
  }
  await Promise.all(probes.map((probe) => probe.dispose()));
  return pool;
}
