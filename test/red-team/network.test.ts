/**
 * Red team, network and deadlines, through a real pool beside two neighbours: the port policy,
 * the WHATWG bad ports for WebSocket, and an invocation's deadline ending the timers, requests
 * and programs it started (a slow drip must not outlive its call).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { attackOptions, attacker, recorder, withNeighbours, type Neighbours } from "./neighbours.js";
import { running, eventually } from "../process-state.js";

let n: Neighbours;
let server: Server;
let port: number;
const events: string[] = [];

beforeAll(async () => {
  n = await withNeighbours();
  server = createServer((req, res) => {
    if (req.url === "/drip") {
      res.writeHead(200);
      const timer = setInterval(() => res.write("x"), 100);
      req.socket.on("close", () => {
        clearInterval(timer);
        events.push("drip closed");
      });
      return;
    }
    res.end("hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await n.dispose();
});

describe("ports", () => {
  it("a listed host reaches only its scheme's port; host:port opens that one port", async () => {
    const body = `
      const out = [];
      try { await fetch("http://127.0.0.1:${"${PORT}"}/") } catch (e) { out.push(e.message) }
      return out;`;
    const hostOnly = await attacker(
      n.pool,
      attackOptions(body.replace("${PORT}", String(port)), { network: ["127.0.0.1"] }),
    );
    await expect(hostOnly.run()).resolves.toEqual([
      `fetch to 127.0.0.1:${port} denied: "127.0.0.1" is listed, but not for port ${port} (add "127.0.0.1:${port}" to svc.permissions.network in package.json)`,
    ]);
    const withPort = await attacker(
      n.pool,
      attackOptions(`return await (await fetch("http://127.0.0.1:${port}/")).text();`, {
        network: [`127.0.0.1:${port}`],
      }),
    );
    await expect(withPort.run()).resolves.toBe("hello");
    await n.check();
  });

  it("WebSocket refuses the WHATWG bad ports even when listed", async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(`try { new WebSocket("ws://127.0.0.1:6667/") } catch (e) { return e.message }`, {
        network: ["127.0.0.1:6667"],
      }),
    );
    await expect(run()).resolves.toBe(
      "WebSocket to 127.0.0.1:6667 denied: port 6667 is one browsers never connect to (it belongs to another protocol)",
    );
    await n.check();
  });
});

describe("what an invocation starts ends at its deadline", () => {
  it("a dripping fetch, an interval and a program started by a run that times out all stop", async () => {
    const rec = recorder();
    const options = attackOptions(
      `
      setInterval(() => console.log("tick"), 50);
      fetch("http://127.0.0.1:${port}/drip").catch(() => {});
      ctx.exec("sh", ["-c", "setsid sleep 30 & echo $! > pid; exec sleep 30"], { timeoutMs: 60000 }).catch(() => {});
      await new Promise(() => {});`,
      { network: [`127.0.0.1:${port}`], exec: ["sh"], runAnyCommand: true },
    );
    const { handle } = await attacker(n.pool, options, rec);
    const error = await handle
      .invoke({ kind: "update", ctx: { preferences: {} } }, { signal: AbortSignal.timeout(600) })
      .catch((e: Error) => e);
    expect(error).toMatchObject({ code: "aborted" });
    // The program and the one it left behind (setsid) are gone.
    const pidFile = join(options.dataDir, "pid");
    expect(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(await eventually(() => !running(pid))).toBe(true);
    // The drip's connection was closed.
    expect(await eventually(() => events.includes("drip closed"))).toBe(true);
    // The interval stopped: no tick after a quiet moment.
    await new Promise((r) => setTimeout(r, 200));
    const ticks = rec.logs().filter((l) => l === "tick").length;
    await new Promise((r) => setTimeout(r, 300));
    expect(rec.logs().filter((l) => l === "tick").length).toBe(ticks);
    await n.check();
  });

  it("work started at load time, or left by a run that finished, is not the deadline's to end", async () => {
    const rec = recorder();
    const options = attackOptions(`
      if (!globalThis.started) { globalThis.started = true; setTimeout(() => console.log("later"), 300); }
      return "done";`);
    const { handle } = await attacker(n.pool, options, rec);
    await expect(
      handle.invoke({ kind: "update", ctx: { preferences: {} } }, { signal: AbortSignal.timeout(5000) }),
    ).resolves.toBe("done");
    expect(await eventually(() => rec.logs().includes("later"))).toBe(true);
    await n.check();
  });
});
