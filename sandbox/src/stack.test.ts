/**
 * The QuickJS stack in sandbox threads: 1 MB by default (~6,500 frames, up from ~1,600), and every
 * deep recursion, in guest code or inside a native built-in, is a clean guest RangeError: the
 * sandbox thread's 32 MB native stack is never the one to overflow.
 */
import { afterAll, describe, expect, it } from "vitest";
import { SandboxPool } from "./threads/pool.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const pool = new SandboxPool({ threads: 1 });
afterAll(() => pool.dispose());

async function run(body: string, stackBytes?: number): Promise<unknown> {
  const limits = { sliceMs: 20_000, ...(stackBytes ? { stackBytes } : {}) };
  const sandbox = await pool.create(optionsFor(`module.exports = { update() { ${body} } };`, { limits }), recorder());
  try {
    await sandbox.load();
    return await sandbox.invoke(UPDATE);
  } finally {
    await sandbox.dispose();
  }
}

const DEPTH = `let depth = 0; function f() { depth++; f(); } try { f(); } catch (e) { return [e.name, depth]; }`;

describe("the guest's stack in a sandbox thread", () => {
  it("allows over 6,000 frames of plain recursion by default, then a RangeError", async () => {
    const [name, depth] = (await run(DEPTH)) as [string, number];
    expect(name).toBe("RangeError");
    expect(depth).toBeGreaterThan(6000);
  });

  it("keeps a smaller stackBytes: 256 KB is about a quarter of the frames", async () => {
    const [, depth] = (await run(DEPTH, 256 * 1024)) as [string, number];
    expect(depth).toBeGreaterThan(1000);
    expect(depth).toBeLessThan(2500);
  });

  it("deep recursion inside native built-ins is a guest RangeError, not a Node stack overflow", async () => {
    const body = `
      const nested = (n) => { let a = []; for (let i = 0; i < n; i++) a = [a]; return a; };
      const attempt = (f) => { try { f(); return "no error"; } catch (e) { return e.name; } };
      return [
        attempt(() => JSON.parse("[".repeat(1e6))),
        attempt(() => String(nested(100000))),
        attempt(() => structuredClone(nested(100000))),
        attempt(() => new Function("return " + "(".repeat(100000) + "1" + ")".repeat(100000))),
        attempt(() => new Function("return " + "[".repeat(100000) + "]".repeat(100000))),
        attempt(() => new Function("return " + "a => ".repeat(30000) + "1")),
        attempt(() => new Function("return " + "\`\${".repeat(30000) + "1" + "}\`".repeat(30000))),
        attempt(() => eval("(".repeat(100000) + "1" + ")".repeat(100000))),
      ];`;
    // (JSON.stringify of deep nesting is left out: QuickJS's is quadratic in the depth, so it
    // is the watchdog that ends it, not the stack; red-team.test.ts covers that.)
    expect(await run(body)).toEqual(Array(8).fill("RangeError"));
  });
});
