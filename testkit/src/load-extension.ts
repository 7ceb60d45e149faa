/**
 * `loadExtension(dir, options)`: one built extension in the app's own sandbox and runtime
 * processing, ready for a test to drive (test-extension.ts).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseManifest, type SvcManifest, type WorkingHours } from "@svc/api";
import type { SignIn } from "./fake-host.js";
import { TestExtension } from "./test-extension.js";

export interface LoadOptions {
  /** Preference values by name (passwords included); the rest take their defaults. */
  preferences?: Record<string, string | number | boolean | null>;
  /** What `ctx.secrets.get` finds. */
  secrets?: Record<string, string>;
  /** People signed in (`ctx.oauth`). */
  signIns?: SignIn[];
  /** `ctx.workingHours()`; default none. */
  workingHours?: WorkingHours | null;
  /** Where the clock starts: a Date, an ISO string or epoch ms. Default 2025-01-06T09:00:00Z (a Monday). */
  now?: Date | string | number;
  /** The guest's time zone (IANA). Default `UTC`, so tests read the same everywhere. */
  timeZone?: string;
  /** Passed to the runtime as the person's locale. Default `en-US`. */
  locale?: string;
  /**
   * A recording of the extension's HTTP (path, relative to the extension's folder). Replayed
   * offline; recorded against the real API when `record` is true. Without one, fetch reaches the
   * real network (still only `permissions.network`).
   */
  recording?: string;
  /** Record instead of replaying. Default: true when `SVC_TEST_RECORD=1` (what `svckit test --record` sets). */
  record?: boolean;
  /** `ctx.storage` as it starts. */
  storage?: Record<string, unknown>;
  /**
   * A program recording (path, relative to the extension's folder): `ctx.exec` then finds only
   * the programs it names, each answering with its recorded output (program-recording.ts).
   * Without one, `ctx.exec` runs the machine's real programs (still only `permissions.exec`).
   */
  programs?: string;
  /**
   * Folders put in place of real ones for reads: `{ "/sys": "test/fixtures/sys", "~/Downloads": dir }`
   * (the test's folders relative to the extension's folder). `permissions.files` is judged on
   * them as on the real ones (folder-view.ts).
   */
  folders?: Record<string, string>;
}

/**
 * @example
 * const ext = await loadExtension(".", { preferences: { apiUrl: "https://api.example.com" }, recording: "test/recordings/deploys.json" });
 * await ext.run();
 * assert.equal(ext.blips[0].title, "Deploying web");
 * await ext.dispose();
 */
export async function loadExtension(dir: string, options: LoadOptions = {}): Promise<TestExtension> {
  const folder = resolve(dir);
  const manifest = await readManifest(folder);
  if (!existsSync(join(folder, "dist", "index.js"))) {
    throw new Error(
      `${join(folder, "dist", "index.js")} is missing: build the extension first (svckit build; svckit test builds it for you)`,
    );
  }
  const ext = new TestExtension(folder, manifest, options);
  try {
    await ext.start(options);
  } catch (error) {
    await ext.dispose();
    throw error;
  }
  return ext;
}

async function readManifest(folder: string): Promise<{ svc: SvcManifest; version: string }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(folder, "package.json"), "utf8"));
  } catch (error) {
    throw new Error(`${join(folder, "package.json")}: ${(error as Error).message}`);
  }
  const parsed = parseManifest(raw);
  if (!parsed.ok) throw new Error(`package.json: ${parsed.error}`);
  return { svc: parsed.manifest.svc, version: parsed.manifest.version };
}
