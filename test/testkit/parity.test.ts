/**
 * The kit behaves as the app: one extension (testkit/fixtures/parity) run in the real svc-runtime
 * process over its pipes, against a real loopback server, and in @svc/testkit with that server's
 * answer replayed from a recording and the guest's timer moved by the test's clock. The blips
 * (as snapshots: cuts and seq included, emittedAt left out), the dropped payload's log line and
 * the action's answer are the same.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlipUpdate, ExtensionAction, ExtensionLoad, ExtensionRun, Initialize, Log } from "@svc/runtime";
import { loadExtension, snapshotOf } from "@svc/testkit";
import { builtFixture, removeFixtures } from "../../testkit/src/kit.fixtures.js";
import { RuntimeProcess } from "../runtime/harness/client.js";

const ID = "com.example.parity";
const TITLES = ["One", "Two", "Three", "Four", "Five", "Six", "Seven"];
let dir: string;
let server: Server;
let apiUrl: string;
let served = 0;
const dataRoots: string[] = [];

beforeAll(async () => {
  server = createServer((_request, response) => {
    served++;
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ open: 7, titles: TITLES }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  apiUrl = `http://127.0.0.1:${port}`;
  dir = await builtFixture("parity", { permissions: { network: [`127.0.0.1:${port}`], files: [], exec: [] } });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  for (const root of dataRoots) rmSync(root, { recursive: true, force: true });
  await removeFixtures();
});

/** What svc-runtime sends for the extension: blip payloads in order, error log lines, the action's answer. */
async function inSvcRuntime(): Promise<{ updates: unknown[]; errors: string[]; emitted: unknown }> {
  const runtime = new RuntimeProcess();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-parity-"));
  dataRoots.push(dataDir);
  try {
    await runtime.call(Initialize, { protocolVersion: 1, dataDir, locale: "en-US", timeZone: "UTC" });
    const { svc, version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    await runtime.call(ExtensionLoad, { id: ID, path: dir, manifest: { ...svc, version }, preferences: { apiUrl } });
    await runtime.call(ExtensionRun, { id: ID, trigger: { type: "manual" } });
    // The guest's 400 ms timer, on real time here.
    await runtime.waitForNotification(BlipUpdate, (p) => p.payload.id === `${ID}/later`);
    const { emitted } = await runtime.call(ExtensionAction, {
      id: ID,
      blipId: `${ID}/open`,
      actionId: "done",
      itemId: "item-2",
    });
    return {
      updates: runtime.notifications(BlipUpdate, ID).map((p) => p.payload),
      errors: runtime
        .notifications(Log, ID)
        .filter((p) => p.level === "error")
        .map((p) => p.message),
      emitted,
    };
  } finally {
    await runtime.shutdown();
  }
}

describe("the same extension in svc-runtime and in the kit", () => {
  it("gives the same snapshots, from a replayed request and a clock advance", { timeout: 30_000 }, async () => {
    const app = await inSvcRuntime();
    expect(served).toBe(1);

    // Record once against the same server, then replay with the server unreachable.
    const recording = "test/recordings/parity.json";
    const recorder = await loadExtension(dir, { preferences: { apiUrl }, recording, record: true });
    await recorder.run();
    await recorder.dispose();
    expect(served).toBe(2);
    server.closeAllConnections();

    const ext = await loadExtension(dir, { preferences: { apiUrl }, recording });
    await ext.run();
    expect(ext.blip("later")).toBeUndefined();
    await ext.clock.advance("399ms");
    expect(ext.blip("later")).toBeUndefined();
    await ext.clock.advance("1ms");
    expect(ext.blip("later")).toBeDefined();
    const { emitted } = await ext.action("open", "done", { itemId: "item-2" });
    await ext.dispose();
    expect(served).toBe(2);

    expect(snapshotOf(ext.updates)).toEqual(snapshotOf(app.updates));
    expect(ext.logs.filter((l) => l.level === "error").map((l) => l.message)).toEqual(app.errors);
    expect(emitted).toEqual(app.emitted);

    // And what they both say, so this test cannot pass on two empty lists.
    expect(snapshotOf(app.updates)).toMatchObject([
      {
        id: `${ID}/open`,
        seq: 1,
        title: "7 open",
        facts: [{ label: "F1" }, { label: "F2" }, { label: "F3" }, { label: "F4" }],
        data: { total: 7 },
      },
      { id: `${ID}/later`, seq: 1, data: { value: { type: "text", value: "status 200" } } },
      { id: `${ID}/pressed`, seq: 1, data: { value: { type: "text", value: "done on item-2" } } },
    ]);
    expect((app.updates[0] as { data: { items: unknown[] } }).data.items).toHaveLength(5);
    expect(app.errors).toEqual([
      expect.stringMatching(
        new RegExp(`^dropped blip ${ID}/huge: payload is \\d+ bytes after truncation, over the 4096-byte limit$`),
      ),
    ]);
    expect(app.emitted).toEqual({ [`${ID}/pressed`]: 1 });
  });
});
