import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { HOST_MAIN, REPO, startHost, useHostWorld } from "./harness.js";

const BUNDLED = join(REPO, "extensions");

const scene = useHostWorld();

describe("bundled extensions", () => {
  it("are built by npm install", () => {
    expect(existsSync(join(BUNDLED, "focus", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(BUNDLED, "system", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(BUNDLED, "devtools", "dist", "tools.json"))).toBe(true);
  });

  it("show a focus timer that starts, pauses and stops, and a system meter, offline", async () => {
    scene.host = await startHost(scene.world, { SVC_BUNDLED_EXTENSIONS: BUNDLED });
    const ready = await scene.host.waitFor((e) => e.type === "blip" && e.id === "dev.svc.focus/session");
    expect(ready.blip).toMatchObject({
      layout: "stat",
      state: "idle",
      data: { value: { type: "text", value: "Ready: 25:00" } },
    });
    const machine = await scene.host.waitFor((e) => e.type === "blip" && e.id === "dev.svc.system/machine", {
      timeoutMs: 15_000,
    });
    expect(machine.blip.layout).toBe("meter");
    expect(machine.blip.data.meters.map((m: any) => m.label)).toEqual(expect.arrayContaining(["Disk", "Load"]));

    const from = scene.host.events.length;
    expect(
      await scene.host.control({ command: "action", blipId: "dev.svc.focus/session", actionId: "start" }),
    ).toMatchObject({ ok: true });
    const running = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "dev.svc.focus/session" && e.blip.layout === "countdown",
      { from },
    );
    expect(running.blip.state).toBe("running");
    expect(Date.parse(running.blip.data.endsAt) - Date.parse(running.blip.data.startedAt)).toBe(25 * 60_000);
    expect(scene.host.events.slice(from).find((e) => e.type === "action")).toMatchObject({
      emitted: { "dev.svc.focus/session": running.seq },
    });

    await scene.host.control({ command: "action", blipId: "dev.svc.focus/session", actionId: "pause" });
    const paused = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "dev.svc.focus/session" && e.blip.state === "waiting",
      { from },
    );
    expect(paused.blip.data.value.value).toMatch(/^2[45]:\d\d left$/);
    await scene.host.control({ command: "action", blipId: "dev.svc.focus/session", actionId: "stop" });
    await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "dev.svc.focus/session" && e.blip.state === "idle" && e.seq > paused.seq,
      { from },
    );
  });

  it("print one line per change when stdout is not a terminal (npm start)", async () => {
    const child = spawn(process.execPath, [HOST_MAIN], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: scene.world.userHome,
        SVC_HOME: scene.world.home,
        SVC_PORT: "0",
        SVC_BUNDLED_EXTENSIONS: BUNDLED,
      },
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      await expect
        .poll(() => out, { timeout: 15_000, interval: 100 })
        .toMatch(/· \[Focus\] Focus {2}Ready: 25:00 {2}\[dev\.svc\.focus\/session #\d+\]/);
      expect(out).toMatch(/^\d\d:\d\d:\d\d extensions: 3 active$/m);
      expect(out).toMatch(/^\d\d:\d\d:\d\d {3}dev\.svc\.focus \(bundled\)$/m);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    // A run already under way may still show its blip while the host stops.
    expect(out).toMatch(/svc-host: stopping\n(?:.*\n)*?.*runtime stopped\n$/);
  });
});
