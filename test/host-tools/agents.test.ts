/**
 * The per-tool switch for agents (`PUT /v1/tools/<id>/<tool>/agents`, stored in
 * `<support>/agent-tools.json`), what a call marked `Svc-Caller: agent` may do, and 503 when the
 * runtime dies under a run — through the real svc-host and svc-runtime.
 */
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHostWorld } from "../host/harness.js";
import { TOOLS_ID } from "./fixture.js";
import { callHost, startToolHost } from "./harness.js";

const scene = useHostWorld({ perFile: true });
const AGENT = { "svc-caller": "agent" };
const switchFor = (tool: string, body: unknown, headers?: Record<string, string>) =>
  callHost(scene.world, "PUT", `/v1/tools/${TOOLS_ID}/${tool}/agents`, body, headers);

describe("tools for agents", () => {
  it("starts the host", { timeout: 60_000 }, async () => {
    scene.host = await startToolHost(scene.world);
  });

  it("every tool starts off for agents; an agent's call to one is refused with where to switch it on", async () => {
    const { json } = await callHost(scene.world, "GET", "/v1/tools");
    expect(json.tools.every((t: any) => t.agents === false)).toBe(true);
    expect(await callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/plain`, {}, AGENT)).toEqual({
      status: 403,
      json: { error: `Plain (${TOOLS_ID}/plain) is not switched on for agents: switch it on in Settings → Tools` },
    });
  });

  it("the person switches a tool on; it is listed so, stored 0600, and an agent may run it", async () => {
    expect(await switchFor("plain", { enabled: true })).toEqual({
      status: 200,
      json: { id: `${TOOLS_ID}/plain`, agents: true },
    });
    expect(await switchFor("echo", { enabled: true })).toMatchObject({ status: 200 });
    const file = join(scene.world.home, "agent-tools.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ enabled: [`${TOOLS_ID}/echo`, `${TOOLS_ID}/plain`] });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const { json } = await callHost(scene.world, "GET", "/v1/tools");
    expect(json.tools.filter((t: any) => t.agents).map((t: any) => t.id)).toEqual([
      `${TOOLS_ID}/echo`,
      `${TOOLS_ID}/plain`,
    ]);
    expect(await callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/plain`, {}, AGENT)).toEqual({
      status: 200,
      json: { blocks: [{ type: "status", text: "plain run", tone: "positive" }] },
    });
    expect(await switchFor("echo", { enabled: false })).toEqual({
      status: 200,
      json: { id: `${TOOLS_ID}/echo`, agents: false },
    });
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ enabled: [`${TOOLS_ID}/plain`] });
  });

  it("an agent's file path is no read grant while no notch is open to ask; agents cannot drop, nor switch tools on", async () => {
    await switchFor("read", { enabled: true });
    await switchFor("hash", { enabled: true });
    const dir = join(scene.world.root, "agent");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "secret.txt"), "secret");
    expect(
      await callHost(
        scene.world,
        "POST",
        `/v1/tools/${TOOLS_ID}/read`,
        { values: { file: [join(dir, "secret.txt")] } },
        AGENT,
      ),
    ).toEqual({
      status: 403,
      json: {
        error:
          "no svc notch is open to ask the person: a file path from an agent is a read grant only once the person allows it there. Ask them to open svc, then call Read again",
      },
    });
    const drop = await callHost(
      scene.world,
      "POST",
      `/v1/tools/${TOOLS_ID}/hash/drop`,
      { action: "list", files: [join(dir, "secret.txt"), join(dir, "secret.txt")] },
      AGENT,
    );
    expect(drop.status).toBe(403);
    expect(drop.json.error).toMatch(/^dropping files is for the person/);
    expect(await switchFor("fail", { enabled: true }, AGENT)).toEqual({
      status: 403,
      json: { error: "only the person switches tools on for agents, in Settings → Tools" },
    });
    expect(
      (await callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/plain`, {}, { "svc-caller": "robot" })).status,
    ).toBe(400);
    expect(
      await callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/plain`, {}, { ...AGENT, "svc-agent": "%E0%A4%A" }),
    ).toEqual({
      status: 400,
      json: { error: "svc-agent should be percent-encoded text (encodeURIComponent)" },
    });
  });

  it("answers 400 for a body other than {enabled: boolean} and 404 for an unknown tool", async () => {
    for (const body of [{ enabled: "yes" }, { enabled: true, extra: 1 }, []]) {
      expect(await switchFor("plain", body)).toEqual({
        status: 400,
        json: { error: 'the body should be {"enabled": true} or {"enabled": false}' },
      });
    }
    expect((await switchFor("nope", { enabled: true })).status).toBe(404);
  });

  it("keeps the switches across a restart of the host", { timeout: 60_000 }, async () => {
    await scene.host!.stop();
    scene.host = await startToolHost(scene.world);
    const { json } = await callHost(scene.world, "GET", "/v1/tools");
    expect(json.tools.filter((t: any) => t.agents).map((t: any) => t.name)).toEqual(["plain", "read", "hash"]);
  });

  it("answers 503 when the runtime dies under a run", async () => {
    const host = scene.host!;
    const from = host.events.length;
    const pending = callHost(scene.world, "POST", `/v1/tools/${TOOLS_ID}/fail`, { action: "hang" });
    await host.waitFor((e) => e.type === "status" && e.extensionId === TOOLS_ID && e.status === "running", { from });
    const started = host.events.filter((e) => e.type === "runtime" && e.pid).at(-1)!;
    process.kill(started.pid, "SIGKILL");
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.json.error).toMatch(
      /^svc's runtime is not available \(tool\.run: the runtime exited\); it restarts by itself: try again in a moment$/,
    );
  });
});
