/**
 * The blip store across a host restart, through the HTTP server: blips and their seqs
 * survive; a stale seq stays refused; an ended blip's pending dismissal is kept.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { progressBlip, startHarness } from "./harness.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-restart-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it("keeps blips and seqs across a restart", async () => {
  const first = await startHarness({ dir });
  await first.call("POST", "/v1/blips", {
    body: [progressBlip({ id: "a" }), progressBlip({ id: "a" }), progressBlip({ id: "b", seq: 40 })],
  });
  await first.call("POST", "/v1/blips", { body: progressBlip({ id: "gone" }) });
  await first.call("DELETE", "/v1/blips/gone");
  first.store.applyUpdate({
    extensionId: "com.example.ci",
    payload: {
      id: "com.example.ci/build",
      seq: 7,
      v: 1,
      emittedAt: "2025-03-01T09:30:00.000Z",
      title: "Build",
      layout: "progress",
      data: { fraction: 0.3 },
    },
  });
  await first.close();

  const second = await startHarness({ dir });
  try {
    expect(second.store.list().map((b) => [b.id, b.seq])).toEqual([
      ["webhook/a", 2],
      ["webhook/b", 40],
      ["com.example.ci/build", 7],
    ]);
    expect(second.store.get("com.example.ci/build")!.source).toEqual({
      kind: "extension",
      extensionId: "com.example.ci",
    });
    // Stamped seqs continue where they were, removed blips included.
    const next = await second.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "a" }), progressBlip({ id: "gone" })],
    });
    expect(next.json.blips).toEqual([
      { id: "webhook/a", seq: 3 },
      { id: "webhook/gone", seq: 2 },
    ]);
    // An out-of-order seq never replaces the newer blip, after a restart too.
    const stale = await second.call("POST", "/v1/blips", { body: progressBlip({ id: "b", seq: 39, title: "Old" }) });
    expect(stale.json.blips).toEqual([{ id: "webhook/b", seq: 40 }]);
    expect(second.store.get("webhook/b")!.payload.title).toBe("Deploy api");
    expect(
      second.store.applyUpdate({
        extensionId: "com.example.ci",
        payload: {
          id: "com.example.ci/build",
          seq: 6,
          v: 1,
          emittedAt: "2025-03-01T09:29:00.000Z",
          title: "Older",
          layout: "progress",
          data: { fraction: 0.1 },
        },
      }),
    ).toBe(false);
    expect(second.store.get("com.example.ci/build")!.payload.title).toBe("Build");
  } finally {
    await second.close();
  }
});

it("removes an ended blip at its dismissal time after a restart", async () => {
  const first = await startHarness({ dir });
  await first.call("POST", "/v1/blips", { body: progressBlip({ id: "done" }) });
  await first.call("POST", "/v1/blips/done/end", { body: { state: "success", dismissAfter: 0.4 } });
  await first.close();
  const second = await startHarness({ dir });
  try {
    expect(second.store.get("webhook/done")?.payload.state).toBe("success");
    await expect.poll(() => second.store.get("webhook/done"), { timeout: 10_000 }).toBeUndefined();
  } finally {
    await second.close();
  }
});
