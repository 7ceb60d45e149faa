/**
 * Runs the real svc-host (host/dist/main.js, which spawns the real svc-runtime) in a temporary
 * SVC_HOME, reading its JSON events (SVC_HOST_OUTPUT=json) and driving it over the control
 * channel (SVC_HOST_CONTROL=stdin) with a manual clock (SVC_HOST_CLOCK=manual).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const HOST_MAIN = join(REPO, "host", "dist", "main.js");

export type HostEvent = { type: string; [key: string]: any };

/** A temporary world: SVC_HOME, a bundled-extensions folder and a home folder. */
export interface World {
  root: string;
  home: string;
  bundled: string;
  user: string;
  userHome: string;
  remove(): Promise<void>;
}

export async function makeWorld(): Promise<World> {
  const root = await mkdtemp(join(tmpdir(), "svc-host-"));
  const world = {
    root,
    home: join(root, "support"),
    bundled: join(root, "bundled"),
    user: join(root, "support", "Extensions"),
    userHome: join(root, "home"),
    remove: () => rm(root, { recursive: true, force: true }),
  };
  await Promise.all([world.bundled, world.user, world.userHome].map((dir) => mkdir(dir, { recursive: true })));
  return world;
}

/** What `useHostWorld()` hands a test file: the current world, and the host started in it. */
export interface HostScene {
  /** The world of the running test (of the file, with `perFile`). */
  readonly world: World;
  /** Set this to the host a test starts: it is stopped when the test (or file) ends. */
  host: RunningHost | undefined;
}

/**
 * Gives each test a fresh world, stopping its host and removing the world afterwards
 * (`perFile: true`: one world for the whole file).
 *
 * @example
 * const scene = useHostWorld();
 * it("runs", async () => {
 *   scene.host = await startHost(scene.world);
 * });
 */
export function useHostWorld(options: { perFile?: boolean } = {}): HostScene {
  let current: World | undefined;
  const scene: HostScene = {
    get world(): World {
      if (!current) throw new Error("useHostWorld(): the world exists only while a test runs");
      return current;
    },
    host: undefined,
  };
  const [before, after] = options.perFile ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    current = await makeWorld();
  });
  after(async () => {
    await scene.host?.stop();
    scene.host = undefined;
    await current?.remove();
    current = undefined;
  });
  return scene;
}

export interface ExtensionFiles {
  /** The `svc` object; `id` and `title` are required by the schema. */
  svc: Record<string, unknown>;
  /** CommonJS source of dist/index.js; omit to write none. */
  code?: string;
  tools?: unknown;
  version?: string;
  /** Raw package.json text, to write a broken one. */
  rawPackageJson?: string;
}

/** Writes an extension folder (package.json, dist/index.js, dist/tools.json). */
export async function writeExtension(folder: string, files: ExtensionFiles): Promise<string> {
  await mkdir(join(folder, "dist"), { recursive: true });
  const pkg =
    files.rawPackageJson ??
    JSON.stringify(
      { name: "fixture", version: files.version ?? "1.0.0", main: "dist/index.js", svc: files.svc },
      null,
      2,
    );
  await writeFile(join(folder, "package.json"), pkg);
  if (files.code !== undefined) await writeFile(join(folder, "dist", "index.js"), files.code);
  if (files.tools !== undefined) await writeFile(join(folder, "dist", "tools.json"), JSON.stringify(files.tools));
  return folder;
}

/**
 * An extension linked into the user's folder as `svckit dev` links one: written in
 * `<root>/dev/<name>` and symlinked as `Extensions/<name>`. Outside the permission ledger, it
 * live-reloads as its files change (an installed folder edited on disk is not loaded).
 * Resolves with the folder the files are in.
 */
export async function writeDevLink(world: World, name: string, files: ExtensionFiles): Promise<string> {
  const folder = await writeExtension(join(world.root, "dev", name), files);
  await symlink(folder, join(world.user, name));
  return folder;
}

/**
 * An extension whose `update()` emits one stat blip `<id>/main` whose value says which run it
 * was and by what trigger, then returns what `result` says (JSON).
 */
export function counterCode(options: { result?: string; extra?: string } = {}): string {
  return `
let runs = 0;
module.exports = { default: {
  async update(ctx) {
    runs++;
    await ctx.emit({ key: "main", title: "Counter", layout: "stat", data: { value: ctx.trigger.type + " " + runs } });
    return ${options.result ?? "{}"};
  },
  ${options.extra ?? ""}
} };
`;
}

export interface RunningHost {
  child: ChildProcessWithoutNullStreams;
  events: HostEvent[];
  stderr: () => string;
  /** Resolves with the first event (from index `from` on) that matches. */
  waitFor(match: (event: HostEvent) => boolean, options?: { timeoutMs?: number; from?: number }): Promise<HostEvent>;
  /** Sends one control command and waits for its answer. */
  control(command: Record<string, unknown>): Promise<HostEvent>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** How long waitFor waits by default: long enough for a busy machine; a passing test never waits it out. */
const WAIT_MS = 30_000;

export async function startHost(world: World, env: Record<string, string> = {}): Promise<RunningHost> {
  const child = spawn(process.execPath, [HOST_MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: world.userHome,
      SVC_HOME: world.home,
      SVC_PORT: "0",
      SVC_BUNDLED_EXTENSIONS: world.bundled,
      SVC_HOST_OUTPUT: "json",
      SVC_HOST_CLOCK: "manual",
      SVC_HOST_CONTROL: "stdin",
      SVC_HOST_RESTART_DELAY_MS: "100",
      SVC_LOG_LEVEL: "debug",
      ...env,
    },
  });
  const events: HostEvent[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  let buffered = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as HostEvent);
    for (const wake of [...waiters]) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const waitFor: RunningHost["waitFor"] = (match, options = {}) =>
    new Promise((resolve, reject) => {
      const from = options.from ?? 0;
      const check = () => {
        const found = events.slice(from).find(match);
        if (!found) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `no matching event within ${options.timeoutMs ?? WAIT_MS} ms; events:\n${events
              .map((e) => JSON.stringify(e))
              .join("\n")
              .slice(-4000)}\nstderr:\n${stderr.slice(-2000)}`,
          ),
        );
      }, options.timeoutMs ?? WAIT_MS);
      if (!check()) waiters.add(check);
    });

  let controls = 0;
  const host: RunningHost = {
    child,
    events,
    stderr: () => stderr,
    waitFor,
    async control(command) {
      const from = events.length;
      controls++;
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return waitFor((e) => e.type === "control" && e.command === command.command, { from });
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
    exited,
  };
  try {
    await waitFor((e) => e.type === "watching" && e.what === "extensions", { timeoutMs: 60_000 });
  } catch (error) {
    // Never leave a host running that no test will stop: it would write into a world being removed.
    await host.stop();
    throw error;
  }
  void controls;
  return host;
}

/** The host's `webhook.json`. */
export async function webhookInfo(world: World): Promise<{ port: number; token: string }> {
  return JSON.parse(await readFile(join(world.home, "webhook.json"), "utf8")) as { port: number; token: string };
}

/** POSTs to the host's HTTP server with its bearer token. */
export async function post(world: World, path: string, body: unknown): Promise<{ status: number; body: string }> {
  const { port, token } = await webhookInfo(world);
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.text() };
}

/** The value a stat blip shows (our fixtures put the run's trigger and count there). */
export const valueOf = (event: HostEvent): unknown => event.blip?.data?.value;
