/**
 * The desktop shell's link to the real host: join the one that runs for the support folder, or
 * start `svc-host` (the committed launcher) and stop it again; pause and resume over `/v1`.
 */
import type { ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HostKeeper } from "../../desktop/src/host-keeper.js";
import {
  HostCallError,
  forkInElectron,
  HostClient,
  startOrJoinHost,
  svcHostBin,
  type HostLink,
} from "../../desktop/src/host-link.js";
import { startHost, useHostWorld, webhookInfo, type World } from "../host/harness.js";
import type { HostEvent } from "../../host/src/events/index.js";
import { FakeUtilityProcess } from "../../desktop/src/testing/electron-double.js";

const scene = useHostWorld();

function hostEnv(world: World): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: world.userHome, SVC_PORT: "0", SVC_BUNDLED_EXTENSIONS: world.bundled };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the desktop's host link", () => {
  it("inside Electron starts svc-host with utilityProcess.fork, never ELECTRON_RUN_AS_NODE (the RunAsNode fuse forbids it)", async () => {
    const utilityProcess = new FakeUtilityProcess();
    const link = await startOrJoinHost({
      supportFolder: scene.world.home,
      env: hostEnv(scene.world),
      fork: forkInElectron(utilityProcess),
    });
    try {
      expect(link.joined).toBe(false);
      expect(await link.client.isLive()).toBe(true);
      expect(utilityProcess.forks).toHaveLength(1);
      const [{ modulePath, args, options }] = utilityProcess.forks as [(typeof utilityProcess.forks)[0]];
      expect(modulePath).toBe(svcHostBin());
      expect(args).toEqual([]);
      expect(options).toMatchObject({ stdio: "pipe", serviceName: "svc-host" });
      expect(options!.env).toMatchObject({ SVC_HOME: scene.world.home, SVC_HOST_OUTPUT: "json" });
      expect(Object.keys(options!.env!)).not.toContain("ELECTRON_RUN_AS_NODE");
    } finally {
      await link.stop();
    }
    expect((link.child as ChildProcess).exitCode).toBe(0);
  });

  it("finds svc-host's committed launcher", () => {
    expect(existsSync(svcHostBin())).toBe(true);
    expect(svcHostBin().endsWith(join("host", "bin", "svc-host.js"))).toBe(true);
  });

  it("starts svc-host when none runs for the folder, pauses and resumes it, and stops it", async () => {
    const events: HostEvent[] = [];
    let link: HostLink | undefined;
    try {
      link = await startOrJoinHost({
        supportFolder: scene.world.home,
        env: hostEnv(scene.world),
        onEvent: (event) => events.push(event),
      });
      expect(link.joined).toBe(false);
      expect(link.child?.pid).toBeGreaterThan(0);
      expect(events.find((e) => e.type === "started")).toMatchObject({ supportFolder: scene.world.home });
      expect(await link.client.isLive()).toBe(true);

      await link.client.pause();
      expect(await link.client.call("scheduler", {})).toEqual({ paused: true, onBattery: false });
      await link.client.resume();
      expect(await link.client.call("scheduler", {})).toEqual({ paused: false, onBattery: false });
      await link.client.setOnBattery(true);
      expect(await link.client.call("scheduler", {})).toEqual({ paused: false, onBattery: true });
      await link.client.setOnBattery(false);
      await until(() => events.some((e) => e.type === "resumed"), "the resumed event");
      expect(events.filter((e) => e.type === "paused" || e.type === "resumed").map((e) => e.type)).toEqual([
        "paused",
        "resumed",
      ]);
    } finally {
      await link?.stop();
    }
    expect((link!.child as ChildProcess).exitCode).toBe(0);
    expect(await link!.client.isLive()).toBe(false);
  });

  it("joins the host that runs for the folder, and leaves it running", async () => {
    scene.host = await startHost(scene.world);
    const link = await startOrJoinHost({ supportFolder: scene.world.home, env: hostEnv(scene.world) });
    expect(link.joined).toBe(true);
    expect(link.child).toBeUndefined();
    const from = scene.host.events.length;
    await link.client.pause();
    await scene.host.waitFor((e) => e.type === "paused", { from });
    await link.stop();
    expect(await link.client.isLive()).toBe(true);
    expect(scene.host.child.exitCode).toBeNull();
  });

  it("registers a dropped file with the host and gets its handle; the host's reason for a refusal", async () => {
    scene.host = await startHost(scene.world);
    const client = new HostClient(scene.world.home);
    const file = join(scene.world.root, "dropped.txt");
    await writeFile(file, "x");
    const handle = await client.giveFile(file);
    expect(handle).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await client.giveFile(file)).not.toBe(handle);
    const refused = await client.giveFile(scene.world.root).catch((error: HostCallError) => error);
    expect(refused).toBeInstanceOf(HostCallError);
    expect(refused).toMatchObject({
      status: 400,
      said: `"path": ${scene.world.root} is not a file (folders and devices cannot be given to a tool)`,
    });
  });

  it("starts a new host when webhook.json names one that is gone", async () => {
    await writeFile(join(scene.world.home, "webhook.json"), JSON.stringify({ port: 9, token: "stale" }));
    const link = await startOrJoinHost({ supportFolder: scene.world.home, env: hostEnv(scene.world) });
    try {
      expect(link.joined).toBe(false);
      expect((await webhookInfo(scene.world)).token).not.toBe("stale");
    } finally {
      await link.stop();
    }
  });

  // SIGTERM, not SIGKILL: the keeper sees any exit it did not ask for the same way, and a host
  // killed outright leaves its svc-runtime behind (reported; the runtime's lifetime is not ours).
  it("starts the host again when the one it started ends without being asked", async () => {
    const restarted: HostLink[] = [];
    const log: string[] = [];
    const keeper = new HostKeeper({
      connect: startOrJoinHost,
      connectOptions: { supportFolder: scene.world.home, env: hostEnv(scene.world) },
      onRestarted: (link) => void restarted.push(link),
      log: (m) => void log.push(m),
    });
    try {
      const first = await keeper.start();
      (first.child as ChildProcess).kill("SIGTERM");
      await until(() => restarted.length === 1, "a new host");
      expect(log[0]).toBe("svc-host stopped on its own (code 0); starting it again in 1 s");
      expect(restarted[0]!.joined).toBe(false);
      expect(restarted[0]!.child!.pid).not.toBe(first.child!.pid);
      expect(await keeper.link.client.isLive()).toBe(true);
    } finally {
      await keeper.stop();
    }
    expect((keeper.link.child as ChildProcess).exitCode).toBe(0);
  });

  it("starts its own host when the one it joined goes away", async () => {
    scene.host = await startHost(scene.world);
    const restarted: HostLink[] = [];
    const keeper = new HostKeeper({
      connect: startOrJoinHost,
      connectOptions: { supportFolder: scene.world.home, env: hostEnv(scene.world) },
      onRestarted: (link) => void restarted.push(link),
      log: () => {},
    });
    try {
      expect((await keeper.start()).joined).toBe(true);
      await scene.host.stop();
      await until(() => restarted.length === 1, "a host of its own");
      expect(restarted[0]!.joined).toBe(false);
      expect(await keeper.link.client.isLive()).toBe(true);
    } finally {
      await keeper.stop();
    }
  }, 30_000);

  it("says what svc-host said when it cannot start", async () => {
    const notAFolder = join(scene.world.root, "file");
    await writeFile(notAFolder, "not a folder");
    await expect(startOrJoinHost({ supportFolder: notAFolder, env: hostEnv(scene.world) })).rejects.toThrow(
      /^svc-host exited with code 1:\nsvc-host: could not start: /,
    );
  });
});
