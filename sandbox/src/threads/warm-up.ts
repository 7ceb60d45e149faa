/**
 * Runs a throwaway sandbox once on a quiet sandbox thread that has created no sandbox yet, so the
 * first real sandbox does not pay for V8's lazy compilation of the interpreter's functions (tens
 * of ms).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Sandbox } from "../sandbox.js";

const WARM_UP_CODE = `module.exports = { update(ctx) { const u = new URL("https://a.test/?q=1"); return JSON.parse(JSON.stringify({ q: u.searchParams.get("q"), t: [1, 2].map(String) })); } };`;

/** @example await warmUp("Europe/London"); // then accept real sandboxes */
export async function warmUp(timeZone?: string): Promise<void> {
  const sandbox = await Sandbox.create(
    {
      id: "svc.warm-up",
      code: WARM_UP_CODE,
      permissions: { network: [], files: [], exec: [] },
      dataDir: join(tmpdir(), "svc-sandbox-warm-up"),
    },
    { forwarded: { forward: async () => null } },
    { timeZone },
  );
  try {
    await sandbox.load();
    await sandbox.invoke({ kind: "update", ctx: { preferences: {} } });
  } finally {
    await sandbox.dispose();
  }
}
