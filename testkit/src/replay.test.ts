/**
 * Record once against a real HTTP server (loopback), replay with the server gone; an unmatched
 * request fails the test naming it; secrets and authorization never reach the file; the network
 * fence still applies while replaying.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadExtension } from "./index.js";
import { builtFixture, removeFixtures } from "./kit.fixtures.js";

const TOKEN = "s3cr3t-token-value";
let dir: string;
let server: Server;
let apiUrl: string;
const seen: { url: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ url: request.url ?? "", authorization: request.headers.authorization });
    response.setHeader("content-type", "application/json");
    response.setHeader("set-cookie", "session=abc");
    response.end(JSON.stringify({ count: 7, echoed: request.headers.authorization }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  apiUrl = `http://127.0.0.1:${port}`;
  dir = await builtFixture("ticker", {
    permissions: { network: [`127.0.0.1:${port}`, "github.com"], files: [], exec: [] },
  });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await removeFixtures();
});

describe("HTTP record and replay", () => {
  it("records against the real server, then replays the same answer with the server gone", async () => {
    const recording = "test/recordings/count.json";
    const recorder = await loadExtension(dir, { preferences: { apiUrl, apiToken: TOKEN }, recording, record: true });
    await recorder.run();
    await recorder.dispose();
    expect(seen).toEqual([{ url: "/count", authorization: `Bearer ${TOKEN}` }]);

    const text = await readFile(join(dir, recording), "utf8");
    expect(text).not.toContain(TOKEN);
    expect(text.toLowerCase()).not.toContain("authorization");
    expect(text).not.toContain("session=abc");
    const file = JSON.parse(text);
    expect(file.exchanges).toEqual([
      {
        method: "GET",
        url: `${apiUrl}/count`,
        response: expect.objectContaining({
          status: 200,
          body: JSON.stringify({ count: 7, echoed: "Bearer [secret]" }),
          bodyEncoding: "utf8",
        }),
      },
    ]);

    server.closeAllConnections();
    const replayer = await loadExtension(dir, { preferences: { apiUrl, apiToken: TOKEN }, recording });
    await replayer.run();
    expect(seen).toHaveLength(1); // nothing reached the server
    expect(replayer.blip("count")).toMatchObject({ layout: "stat", data: { value: 7, label: "metric" } });
    await replayer.dispose();
  });

  it("an unmatched request fails the call, naming it and what the recording holds", async () => {
    const ext = await loadExtension(dir, {
      preferences: { apiUrl: `${apiUrl}/v2` },
      recording: "test/recordings/count.json",
    });
    await expect(ext.run()).rejects.toThrow(
      `fetch: GET ${apiUrl}/v2/count has no recorded response in ${join(dir, "test/recordings/count.json")}; it holds: GET ${apiUrl}/count. Record it again against the real API: svckit test --record`,
    );
    await ext.dispose();
  });

  it("the network fence applies while replaying: an unlisted host is denied, not replayed", async () => {
    // The runtime's extension.denied is heard, not reported as a notification nothing handles.
    const notes: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk, ...rest) => {
      if (String(chunk).startsWith("svc-testkit:")) return notes.push(String(chunk)) > 0;
      return write(chunk, ...(rest as []));
    });
    const ext = await loadExtension(dir, {
      preferences: { apiUrl: "https://api.example.com" },
      recording: "test/recordings/count.json",
    });
    await expect(ext.run()).rejects.toThrow(/api\.example\.com/);
    expect(ext.denials).toEqual([
      expect.objectContaining({ kind: "fetch", target: expect.stringContaining("api.example.com") }),
    ]);
    expect(
      ext.logs.some(
        (l) => l.level === "warn" && l.message.includes('add "api.example.com" to svc.permissions.network'),
      ),
    ).toBe(true);
    await ext.dispose();
    spy.mockRestore();
    expect(notes).toEqual([]);
  });

  it("a blip's staleAfter follows the clock", async () => {
    // A second run (storage says one happened) schedules the next after the 5m interval.
    const ext = await loadExtension(dir, {
      preferences: { apiUrl, apiToken: TOKEN },
      recording: "test/recordings/count.json",
      storage: { runs: 1 },
    });
    await ext.run();
    expect(ext.nextRunAt).toBe(ext.clock.now() + 5 * 60_000);
    expect(ext.isStale("count")).toBe(false);
    await ext.clock.advance("1m59s");
    expect(ext.isStale("count")).toBe(false);
    await ext.clock.advance("1s");
    expect(ext.isStale("count")).toBe(true);
    await ext.dispose();
  });
});
