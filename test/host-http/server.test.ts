/**
 * Launching the server: port 47811 / SVC_PORT with a fallback when taken, webhook.json
 * `{port, token}` with mode 0600 and a new token at every launch.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_PORT, preferredPort, startHttpServer } from "../../host/src/http/index.js";
import { BlipStore } from "../../host/src/store/index.js";
import { readWebhookFile } from "../../host/src/support/index.js";
import { recordingHooks, startHarness, type Harness } from "./harness.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function harness(options: { port?: number; dir?: string } = {}): Promise<Harness> {
  const h = await startHarness(options);
  cleanup.push(() => h.close());
  return h;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-launch-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function occupy(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

describe("webhook.json", () => {
  it("is {port, token} with mode 0600 and a 32-byte base64url token", async () => {
    const h = await harness();
    const info = await readWebhookFile(h.paths.webhookFile);
    expect(info).toEqual({ port: h.server.port, token: h.server.token });
    expect(JSON.parse(await readFile(h.paths.webhookFile, "utf8"))).toEqual({
      port: h.server.port,
      token: h.server.token,
    });
    expect((await stat(h.paths.webhookFile)).mode & 0o777).toBe(0o600);
    expect(h.server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(h.server.token, "base64url")).toHaveLength(32);
  });

  it("gets a new token at every launch, and the old token stops working", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "webhook.json"), '{"port": 1, "token": "old"}', { mode: 0o644 });
    const first = await startHarness({ dir });
    const firstToken = first.server.token;
    await first.close();
    const second = await harness({ dir });
    const info = await readWebhookFile(second.paths.webhookFile);
    expect(info.token).toBe(second.server.token);
    expect(info.token).not.toBe(firstToken);
    expect(info.token).not.toBe("old");
    expect((await stat(second.paths.webhookFile)).mode & 0o777).toBe(0o600);
    const stale = await second.call("GET", "/v1/health", { headers: { Authorization: `Bearer ${firstToken}` } });
    expect(stale.status).toBe(401);
  });
});

describe("port", () => {
  it("uses the port asked for when it is free", async () => {
    const { server, port } = await occupy();
    await new Promise((r) => server.close(r));
    const h = await harness({ port });
    expect(h.server.port).toBe(port);
  });

  it("falls back to a free port when the port is taken, and writes that port to webhook.json", async () => {
    const taken = await occupy();
    cleanup.push(() => new Promise((r) => taken.server.close(r)));
    const h = await harness({ port: taken.port });
    expect(h.server.port).not.toBe(taken.port);
    expect((await readWebhookFile(h.paths.webhookFile)).port).toBe(h.server.port);
    expect((await h.call("GET", "/v1/health")).status).toBe(200);
    expect(h.logs.some((line) => line.includes(`port ${taken.port} is taken`))).toBe(true);
  });

  it("reads SVC_PORT, defaults to 47811, and refuses a bad SVC_PORT", () => {
    expect(DEFAULT_PORT).toBe(47811);
    expect(preferredPort({})).toBe(47811);
    expect(preferredPort({ SVC_PORT: "" })).toBe(47811);
    expect(preferredPort({ SVC_PORT: "48000" })).toBe(48000);
    expect(preferredPort({ SVC_PORT: "0" })).toBe(0);
    expect(preferredPort({ SVC_PORT: "65535" })).toBe(65535);
    expect(() => preferredPort({ SVC_PORT: "65536" })).toThrow('SVC_PORT should be a port number 0–65535, got "65536"');
    expect(() => preferredPort({ SVC_PORT: "http" })).toThrow(/SVC_PORT should be a port number/);
  });

  it("listens on SVC_PORT when no port is given", async () => {
    const { server, port } = await occupy();
    await new Promise((r) => server.close(r));
    const dir = await tempDir();
    const store = await BlipStore.open(join(dir, "blips.json"));
    const saved = process.env.SVC_PORT;
    process.env.SVC_PORT = String(port);
    try {
      const http = await startHttpServer({ store, hooks: recordingHooks(), log: () => {} });
      cleanup.push(() => http.close());
      expect(http.port).toBe(port);
    } finally {
      if (saved === undefined) delete process.env.SVC_PORT;
      else process.env.SVC_PORT = saved;
    }
  });
});

describe("close", () => {
  it("stops listening, and is safe to call twice", async () => {
    const h = await harness();
    await h.call("GET", "/v1/health");
    await Promise.all([h.server.close(), h.server.close()]);
    await expect(fetch(`${h.server.url}/v1/health`)).rejects.toThrow();
  });
});
