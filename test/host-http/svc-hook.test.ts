/**
 * The built `svc-hook` (host/dist/hook/main.js) and its installed launcher, as real child
 * processes, against a running server and against nothing. It must never fail its caller.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installHookLauncher, newToken } from "../../host/src/support/index.js";
import { startHarness, type Harness } from "./harness.js";

const HELPER = fileURLToPath(new URL("../../host/dist/hook/main.js", import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], home: string): Promise<Run> {
  const [command, argv] = file.endsWith(".js") ? [process.execPath, [file, ...args]] : [file, args];
  return new Promise((resolve) => {
    execFile(command, argv, { env: { ...process.env, SVC_HOME: home }, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const hook = (args: string[], home: string) => run(HELPER, args, home);

beforeAll(() => {
  if (!existsSync(HELPER)) throw new Error(`build first: npx tsc -b host/tsconfig.json (missing ${HELPER})`);
});

describe("against a running server", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("start shows a running blip with a clock and prints its id", async () => {
    const result = await hook(
      ["start", "Deploy api", "--id", "deploy-api", "--icon", "shippingbox", "--step", "Building"],
      h.dir,
    );
    expect(result).toMatchObject({ code: 0, stdout: "webhook/deploy-api\n", stderr: "" });
    const blip = h.store.get("webhook/deploy-api")!;
    expect(blip.source).toEqual({ kind: "webhook" });
    expect(blip.payload).toMatchObject({
      title: "Deploy api",
      icon: "shippingbox",
      state: "running",
      layout: "session",
      data: { step: "Building" },
    });
  });

  it("step with a fraction shows progress under the remembered title and icon", async () => {
    const result = await hook(["step", "deploy-api", "0.4", "Running migrations"], h.dir);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(h.store.get("webhook/deploy-api")!.payload).toMatchObject({
      title: "Deploy api",
      icon: "shippingbox",
      layout: "progress",
      data: { fraction: 0.4, step: "Running migrations" },
      seq: 2,
    });
    await hook(["step", "webhook/deploy-api", "75%"], h.dir);
    expect(h.store.get("webhook/deploy-api")!.payload.data).toEqual({ fraction: 0.75 });
  });

  it("step with only a text keeps the clock from start", async () => {
    const startedAt =
      (await hook(["start", "Agent"], h.dir)) &&
      (h.store.get("webhook/agent")!.payload.data as { startedAt: string }).startedAt;
    await hook(["step", "agent", "Editing src/app.ts"], h.dir);
    expect(h.store.get("webhook/agent")!.payload.data).toEqual({ startedAt, step: "Editing src/app.ts" });
  });

  it("end sets the state and dismisses after 30 s unless --keep", async () => {
    // Bounded by the clock on both sides of the run, not by how long a busy machine takes to run it.
    const before = Date.now();
    expect((await hook(["end", "deploy-api"], h.dir)).code).toBe(0);
    const after = Date.now();
    const ended = h.store.get("webhook/deploy-api")!;
    expect(ended.payload.state).toBe("success");
    const dismissAt = Date.parse(ended.ended!.dismissAt!);
    expect(dismissAt).toBeGreaterThanOrEqual(before + 30_000);
    expect(dismissAt).toBeLessThanOrEqual(after + 30_000);
    await hook(["end", "agent", "failure", "--keep"], h.dir);
    expect(h.store.get("webhook/agent")!.payload.state).toBe("failure");
    expect(h.store.get("webhook/agent")!.ended!.dismissAt).toBeUndefined();
  });

  it("remove takes the blip away", async () => {
    expect((await hook(["remove", "agent"], h.dir)).code).toBe(0);
    expect(h.store.get("webhook/agent")).toBeUndefined();
  });

  it("reports what the server refused on one line, and exits 0", async () => {
    const result = await hook(["end", "never-started"], h.dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('svc-hook: svc refused it (404): no pushed blip "webhook/never-started"\n');
    expect((await hook(["end", "never-started", "--strict"], h.dir)).code).toBe(1);
  });

  it("reads webhook.json on every run: a token the server cannot prove it holds is reported, not fatal", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-hook-token-"));
    try {
      await writeFile(join(dir, "webhook.json"), JSON.stringify({ port: h.server.port, token: newToken() }));
      const result = await hook(["start", "X"], dir);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(
        `svc-hook: something else is answering on port ${h.server.port}: it is not svc (it could not prove it holds svc's key). Stop it, or start svc-host again.\n`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs through the installed launcher", async () => {
    const launcher = await installHookLauncher({ path: join(h.dir, "bin", "svc-hook"), helperPath: HELPER });
    const result = await run(launcher, ["start", "Via launcher"], h.dir);
    expect(result).toMatchObject({ code: 0, stdout: "webhook/via-launcher\n" });
    expect(h.store.get("webhook/via-launcher")).toBeDefined();
  });
});

describe("against nothing", () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "svc-hook-none-"));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it("exits 0 with one line when svc never ran here (no webhook.json)", async () => {
    const result = await hook(["start", "Deploy api"], home);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `svc-hook: no ${join(home, "webhook.json")}: is svc running? (it writes this file at every launch)\n`,
    );
  });

  it("exits 0 with one line when svc is not running (nothing listens)", async () => {
    const closed = await startHarness();
    const port = closed.server.port;
    await closed.close();
    await writeFile(join(home, "webhook.json"), JSON.stringify({ port, token: "t" }));
    const result = await hook(["step", "x", "0.5", "Going"], home);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`svc-hook: svc is not running (nothing listens on 127.0.0.1:${port})\n`);
    expect((await hook(["step", "x", "0.5", "--strict"], home)).code).toBe(1);
  });

  it("gives up after 2 s when svc does not answer, and exits 0", async () => {
    const sockets: Socket[] = [];
    // How long the helper waited, seen from the server: from its connection to its giving up
    // (the helper's own start-up, slow on a busy machine, is not part of the 2 s).
    const waited: Promise<number>[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      const connected = Date.now();
      socket.resume(); // read and ignore the request, so its end (the helper giving up) is seen
      waited.push(new Promise((resolve) => socket.on("close", () => resolve(Date.now() - connected))));
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      await writeFile(
        join(home, "webhook.json"),
        JSON.stringify({ port: (silent.address() as { port: number }).port, token: "t" }),
      );
      const result = await hook(["remove", "x"], home);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("svc-hook: svc did not answer within 2 s\n");
      expect(waited).toHaveLength(1);
      const ms = await waited[0];
      expect(ms).toBeGreaterThanOrEqual(1900);
      expect(ms).toBeLessThan(4000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it("exits 0 with one line for a broken webhook.json or a typing mistake", async () => {
    await writeFile(join(home, "webhook.json"), "{not json");
    const broken = await hook(["start", "X"], home);
    expect(broken.code).toBe(0);
    expect(broken.stderr).toMatch(
      /^svc-hook: .*webhook\.json is not \{"port": <number>, "token": "<string>"\}: restart svc to rewrite it\n$/,
    );
    const typo = await hook(["strat", "X"], home);
    expect(typo).toMatchObject({
      code: 0,
      stderr: 'svc-hook: unknown command "strat": use start, step, end, remove or send (svc-hook --help)\n',
    });
  });

  it("prints help with --help and exits 0", async () => {
    const help = await hook(["--help"], home);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: svc-hook <command>/);
    expect(help.stdout).toContain('svc-hook step deploy-api 0.4 "Running migrations"');
  });

  it("the launcher exits 0 with a note when the helper has gone", async () => {
    const launcher = await installHookLauncher({
      path: join(home, "bin", "svc-hook"),
      helperPath: join(home, "moved", "main.js"),
    });
    const result = await run(launcher, ["start", "X"], home);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^svc-hook: svc is not installed where this launcher expects it/);
  });
});
