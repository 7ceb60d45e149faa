/**
 * Shared parts of the host trust tests: the real host comes from test/host's harness; here are
 * the guest snippets our fixture extensions share, reading their reports off blips, and the
 * "this value is in no file" check.
 */
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { HOST_MAIN, type HostEvent, type RunningHost, type World } from "../host/harness.js";

/**
 * Guest helpers for fixture code: `attempt(p)` turns a host call into `{ok}` or `{error}`;
 * `unwrap` reads a secrets answer whether the guest hands back the value or the host's
 * `{value}` (the guest-side unwrap is the lead's to settle; these tests check the host side).
 */
export const GUEST_HELPERS = `
const unwrap = (r) => (r !== null && typeof r === "object" && !Array.isArray(r) && "value" in r ? r.value : r);
const attempt = (p) => p.then((r) => ({ ok: r === undefined ? null : r }), (e) => ({ error: e && e.message }));
const report = (ctx, key, value) => ctx.emit({ key, title: key, layout: "stat", data: { value: JSON.stringify(value) } });
`;

/**
 * Guest helpers for sign-in fixtures, after `GUEST_HELPERS`: `list(r)` reads the connections an
 * answer holds; `shownToken(r)` is "the one issued" for `access` (never the token itself, so the
 * bundle does not hold it), else what came back.
 */
export function signInHelpers(access: string): string {
  return `${GUEST_HELPERS}
const ACCESS = ${hiddenLiteral(access)};
const list = (r) => (r.ok ? (Array.isArray(r.ok) ? r.ok : r.ok.connections) : r);
const shownToken = (r) => {
  const value = r.ok && (typeof r.ok === "object" ? r.ok.token : r.ok);
  return value === ACCESS ? "the one issued" : value;
};
`;
}

/** The JSON a fixture put in a blip with `report(ctx, key, value)`. */
export function reportOf(event: HostEvent): any {
  return JSON.parse(event.blip.data.value as string);
}

/** Waits for the next report blip `<id>/<key>` (from event index `from` on) and parses it. */
export async function nextReport(host: RunningHost, blipId: string, from = 0, timeoutMs = 30_000): Promise<any> {
  const event = await host.waitFor((e) => e.type === "blip" && e.change === "update" && e.id === blipId, {
    from,
    timeoutMs,
  });
  return reportOf(event);
}

/** Waits for a report blip `<id>/<key>` whose report says `trigger` (fixtures report `ctx.trigger.type`). */
export async function reportOfRun(host: RunningHost, blipId: string, trigger: string, from = 0): Promise<any> {
  const event = await host.waitFor(
    (e) => e.type === "blip" && e.change === "update" && e.id === blipId && reportOf(e).trigger === trigger,
    { from, timeoutMs: 30_000 },
  );
  return reportOf(event);
}

/**
 * A JavaScript expression for `value` in which `value` itself never appears: fixtures that hold
 * a secret use it, so neither their bundle nor its compiled form on disk contains the secret
 * and `filesContaining` tests only what svc writes.
 */
export function hiddenLiteral(value: string): string {
  return `${JSON.stringify([...value].reverse().join(""))}.split("").reverse().join("")`;
}

/** Every file under `root` (recursively) whose bytes contain `needle`. */
export async function filesContaining(root: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  const bytes = Buffer.from(needle, "utf8");
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    // A temp file of an atomic write may be renamed away between the listing and the read.
    const content = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (content?.includes(bytes)) found.push(path);
  }
  return found;
}

/** How many events so far match. */
export function count(host: RunningHost, match: (event: HostEvent) => boolean): number {
  return host.events.filter(match).length;
}

/** The environment of a `svc-host` command run by the person in `world`, with the test's keyring bus. */
export function cliEnv(world: World, bus: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: world.userHome,
    SVC_HOME: world.home,
    SVC_BUNDLED_EXTENSIONS: world.bundled,
    DBUS_SESSION_BUS_ADDRESS: bus,
  };
}

/** What one `svc-host <words>` run printed, and how it ended. */
export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `svc-host <words>` in `env` with stdin a pipe (not a terminal), as a script would; `input`
 * is written to stdin.
 */
export function svcHostCli(env: NodeJS.ProcessEnv, words: string[], input = ""): Promise<CliOutcome> {
  const child = spawn(process.execPath, [HOST_MAIN, ...words], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
