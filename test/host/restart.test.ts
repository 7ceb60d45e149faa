import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { counterCode, post, startHost, writeExtension, useHostWorld } from "./harness.js";

const scene = useHostWorld();

describe("restarts", () => {
  it("restarts a runtime killed with -9 and restores every extension", async () => {
    await writeExtension(join(scene.world.bundled, "one"), {
      svc: { id: "test.one", title: "One", interval: "1h" },
      code: counterCode(),
    });
    await writeExtension(join(scene.world.bundled, "two"), {
      svc: { id: "test.two", title: "Two", interval: "1h" },
      code: counterCode(),
    });
    scene.host = await startHost(scene.world);
    const started = await scene.host.waitFor((e) => e.type === "runtime" && e.state === "started");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.two/main");

    const from = scene.host.events.length;
    process.kill(started.pid, "SIGKILL");
    expect(await scene.host.waitFor((e) => e.type === "runtime" && e.state === "exited", { from })).toMatchObject({
      detail: "killed by SIGKILL",
    });
    const restored = await scene.host.waitFor((e) => e.type === "runtime" && e.state === "restored", { from });
    expect(restored.pid).not.toBe(started.pid);
    await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "test.one" && e.reason === "restored", {
      from,
    });
    await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "test.two" && e.reason === "restored", {
      from,
    });

    // The restored extension runs again, its seq carrying on from before the crash.
    await scene.host.control({ command: "run", id: "test.one" });
    const after = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "test.one/main" && e.blip.data.value === "manual 1",
      { from },
    );
    expect(after.seq).toBe(2);
    // The schedule was kept: no second launch run.
    expect(scene.host.events.slice(from).filter((e) => e.type === "run.start" && e.trigger === "launch")).toEqual([]);
  });

  it("keeps blips and seqs across a restart of the host", async () => {
    await writeExtension(join(scene.world.bundled, "one"), {
      svc: { id: "test.one", title: "One", interval: "1h" },
      code: counterCode(),
    });
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main" && e.seq === 1);
    await scene.host.control({ command: "run", id: "test.one" });
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main" && e.seq === 2);
    expect(
      await post(scene.world, "/v1/blips", { id: "deploy", title: "Deploy", layout: "stat", data: { value: "ok" } }),
    ).toMatchObject({ status: 200 });
    expect(await scene.host.stop()).toBe(0);
    const saved = JSON.parse(await readFile(join(scene.world.home, "blips.json"), "utf8"));
    expect(saved.blips.map((b: any) => [b.id, b.seq])).toEqual([
      ["test.one/main", 2],
      ["webhook/deploy", 1],
    ]);

    scene.host = await startHost(scene.world);
    const { events } = scene.host;
    // What came back from disk, said before the new runtime's launch run can write over it.
    const kept = await scene.host.waitFor((e) => e.type === "blips.restored");
    expect(kept.blips.map((b: any) => [b.id, b.seq, b.data.value])).toEqual([
      ["test.one/main", 2, "manual 2"],
      ["webhook/deploy", 1, "ok"],
    ]);
    const next = await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.one/main");
    expect(events.indexOf(kept)).toBeLessThan(events.indexOf(next));
    expect(next.seq).toBe(3);
    expect(next.blip.data.value).toBe("launch 1");

    // The kept seq still guards the pushed blip: an old seq is refused, a newer one lands.
    const stale = { id: "deploy", title: "Deploy", layout: "stat", data: { value: "stale" } };
    expect(await post(scene.world, "/v1/blips", { ...stale, seq: 1 })).toMatchObject({ status: 200 });
    expect(await post(scene.world, "/v1/blips", { ...stale, seq: 2, data: { value: "newer" } })).toMatchObject({
      status: 200,
    });
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "webhook/deploy" && e.seq === 2);
    expect(events.filter((e) => e.type === "blip" && e.id === "webhook/deploy").map((e) => e.blip.data.value)).toEqual([
      "newer",
    ]);
  });
});
