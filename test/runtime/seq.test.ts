/** seq: per blip id, persisted in Data/<id>/seq.json, never backwards across restarts or kill -9. */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { BlipUpdate, ExtensionRun, Shutdown } from "@svc/runtime";
import { tempRoot } from "./harness/fixtures.js";
import { loadFixture, startRuntime } from "./harness/setup.js";

const ID = "com.example.seq";
const run = { id: ID, trigger: { type: "manual" as const } };

describe("seq", () => {
  it("is persisted and continues after a restart", async () => {
    const root = tempRoot();
    const first = await startRuntime({}, root);
    await loadFixture(first, "blips", ID);
    await first.runtime.call(ExtensionRun, run);
    await first.runtime.call(ExtensionRun, run);
    expect(first.runtime.notifications(BlipUpdate).map((u) => u.payload.seq)).toEqual([1, 2]);
    await first.runtime.call(Shutdown, {});
    await first.runtime.exited;
    expect(JSON.parse(readFileSync(join(root.data, ID, "seq.json"), "utf8"))).toEqual({
      floor: 0,
      last: { [`${ID}/a`]: 2 },
    });

    const second = await startRuntime({}, root);
    await loadFixture(second, "blips", ID);
    await second.runtime.call(ExtensionRun, run);
    expect(second.runtime.notifications(BlipUpdate).map((u) => u.payload.seq)).toEqual([3]);
  });

  it("never goes backwards after kill -9", async () => {
    const root = tempRoot();
    const first = await startRuntime({}, root);
    await loadFixture(first, "blips", ID, { mode: "burst" });
    void first.runtime.request(ExtensionRun, run);
    const seen = await first.runtime.waitForNotification(BlipUpdate, () => true, 2);
    first.runtime.child.kill("SIGKILL");
    await first.runtime.exited;
    const highest = Math.max(...first.runtime.notifications(BlipUpdate).map((u) => u.payload.seq));
    expect(highest).toBeGreaterThanOrEqual(seen.payload.seq);

    const second = await startRuntime({}, root);
    await loadFixture(second, "blips", ID, { mode: "basic" });
    await second.runtime.call(ExtensionRun, run);
    expect(second.runtime.notifications(BlipUpdate)[0].payload.seq).toBeGreaterThan(highest);
  });

  it("recovers from a corrupt seq.json: moved aside, seq restarts above the current time", async () => {
    const root = tempRoot();
    mkdirSync(join(root.data, ID), { recursive: true });
    writeFileSync(join(root.data, ID, "seq.json"), "{ this is not json");
    const before = Date.now();
    const started = await startRuntime({}, root);
    await loadFixture(started, "blips", ID);
    await started.runtime.call(ExtensionRun, run);
    expect(started.runtime.notifications(BlipUpdate)[0].payload.seq).toBeGreaterThan(before);
    expect(readdirSync(join(root.data, ID)).some((f) => /^seq\.json\.corrupt-\d+$/.test(f))).toBe(true);
    expect(started.runtime.stderr).toMatch(
      /seq\.json was corrupt: moved it to .*seq\.json\.corrupt-\d+; seq restarts above \d+/,
    );
  });
});
