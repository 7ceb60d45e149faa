/**
 * The red team's bystanders: every attack runs in a pool beside two neighbour extensions that
 * use the same capabilities (storage, files, exec, timers). After each attack the test checks
 * they still answer with the right values, so "the attack was refused" never hides "and it
 * broke everyone else".
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { SandboxPool, SandboxError, type SandboxHandle, type SandboxOptions, type Permissions } from "@svc/sandbox";
import { recorder, type Recorder } from "../../sandbox/src/sandbox.fixtures.js";

export const UPDATE = { kind: "update", ctx: { preferences: {} } } as const;

export const root = realpathSync(mkdtempSync(join(tmpdir(), "svc-red-team-")));
let counter = 0;

export function permissions(p: Partial<Permissions> = {}): Permissions {
  return { network: [], files: [], exec: [], ...p };
}

/** Sandbox options for a bundle whose `update()` runs `body`, with its own data folder. */
export function attackOptions(
  body: string,
  p: Partial<Permissions> = {},
  extra: Partial<SandboxOptions> = {},
): SandboxOptions {
  const id = `test.attack${++counter}`;
  return {
    id,
    code: `module.exports = { async update(ctx) { ${body} } };`,
    permissions: permissions(p),
    dataDir: join(root, "Data", id),
    limits: { sliceMs: 1000, memoryBytes: 32 * 1024 * 1024 },
    ...extra,
  };
}

const NEIGHBOUR = `
  const runs = ((await ctx.storage.get("runs")) ?? 0) + 1;
  await ctx.storage.set("runs", runs);
  await ctx.files.write("note.txt", "run " + runs);
  const echoed = (await ctx.exec("echo", ["hi"])).stdout;
  await new Promise((r) => setTimeout(r, 5));
  return { runs, note: await ctx.files.read("note.txt"), echoed };`;

export interface Neighbours {
  pool: SandboxPool;
  /** Asserts both neighbours are alive and their storage, files, exec and timers still work. */
  check(): Promise<void>;
  dispose(): Promise<void>;
}

export async function withNeighbours(
  options: ConstructorParameters<typeof SandboxPool>[0] = { threads: 2 },
): Promise<Neighbours> {
  const pool = new SandboxPool(options);
  const made: { handle: SandboxHandle; rec: Recorder; runs: number }[] = [];
  for (const name of ["one", "two"]) {
    const rec = recorder();
    const handle = await pool.create(
      {
        id: `test.neighbour.${name}`,
        code: `module.exports = { async update(ctx) { ${NEIGHBOUR} } };`,
        permissions: permissions({ exec: ["echo"] }),
        dataDir: join(root, "Data", `neighbour-${name}-${++counter}`),
      },
      rec,
    );
    await handle.load();
    made.push({ handle, rec, runs: 0 });
  }
  return {
    pool,
    async check() {
      for (const neighbour of made) {
        expect(neighbour.rec.crashes).toEqual([]);
        neighbour.runs++;
        await expect(neighbour.handle.invoke(UPDATE)).resolves.toEqual({
          runs: neighbour.runs,
          note: `run ${neighbour.runs}`,
          echoed: "hi\n",
        });
      }
    },
    dispose: () => pool.dispose(),
  };
}

/** Creates, loads and returns an attacking sandbox in the pool. */
export async function attacker(pool: SandboxPool, options: SandboxOptions, rec: Recorder = recorder()) {
  const handle = await pool.create(options, rec);
  await handle.load();
  return { handle, rec, run: () => handle.invoke(UPDATE) };
}

/** The SandboxError a call failed with. */
export async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError);
    return error as SandboxError;
  }
  throw new Error("expected the call to fail");
}

export { recorder };
