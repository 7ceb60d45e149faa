import { spawn } from "node:child_process";
import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOST_MAIN, startHost, useHostWorld, webhookInfo, type World } from "./harness.js";

const scene = useHostWorld();

/** Runs a second svc-host on the same support folder until it exits. */
function secondHost(world: World): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOST_MAIN], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: world.userHome,
        SVC_HOME: world.home,
        SVC_PORT: "0",
        SVC_BUNDLED_EXTENSIONS: world.bundled,
        SVC_HOST_OUTPUT: "json",
      },
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.once("exit", (code) => resolve({ code, stderr, stdout }));
  });
}

describe("one app per support folder", () => {
  it("a second host refuses to start and leaves webhook.json alone", async () => {
    scene.host = await startHost(scene.world);
    const before = await readFile(join(scene.world.home, "webhook.json"), "utf8");
    const { port } = await webhookInfo(scene.world);

    const second = await secondHost(scene.world);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `svc-host: could not start: svc is already running (pid ${scene.host.child.pid}, http 127.0.0.1:${port}) on ${scene.world.home}; stop it first, or give this one another SVC_HOME\n`,
    );
    expect(await readFile(join(scene.world.home, "webhook.json"), "utf8")).toBe(before);
    // The first one still answers with its token.
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`, {
      headers: { authorization: `Bearer ${JSON.parse(before).token}` },
    });
    expect(health.status).toBe(200);
  });

  it("takes over the lock of a host that was killed, and frees it on a clean stop", async () => {
    scene.host = await startHost(scene.world);
    const runtime = await scene.host.waitFor((e) => e.type === "runtime" && e.state === "started");
    scene.host.child.kill("SIGKILL");
    await scene.host.exited;
    // A host killed outright leaves its runtime behind: end it too.
    process.kill(runtime.pid, "SIGKILL");
    expect(JSON.parse(await readFile(join(scene.world.home, "host.lock"), "utf8")).pid).toBe(scene.host.child.pid);

    scene.host = await startHost(scene.world);
    const { port } = await webhookInfo(scene.world);
    expect(JSON.parse(await readFile(join(scene.world.home, "host.lock"), "utf8"))).toEqual({
      pid: scene.host.child.pid,
      port,
    });
    expect(await scene.host.stop()).toBe(0);
    await expect(readFile(join(scene.world.home, "host.lock"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("a start that fails part-way", () => {
  it("takes down what it built: the runtime stops and the support folder's lock is released", async () => {
    // webhook.json cannot be written where a folder stands: the HTTP server fails after the
    // lock, the store, the trust pieces and the runtime are up.
    await mkdir(join(scene.world.home, "webhook.json"), { recursive: true });
    const failed = await secondHost(scene.world);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^svc-host: could not start: .*webhook\.json/);
    const events = failed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; state?: string });
    expect(events.filter((e) => e.type === "runtime").map((e) => e.state)).toEqual(["started", "stopped"]);
    await expect(stat(join(scene.world.home, "host.lock"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
