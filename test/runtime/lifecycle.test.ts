/** Lifecycle: lazy loads for tools, reloads, crash restarts within the 3-per-5-minutes window. */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BlipUpdate,
  ErrorCodes,
  ExtensionLoad,
  ExtensionRun,
  ExtensionStatusChanged,
  ExtensionTools,
  TestAdvanceClock,
  ToolRun,
  precompileExtension,
} from "@svc/runtime";
import { buildFixture } from "./harness/fixtures.js";
import { loadFixture, startRuntime } from "./harness/setup.js";

const ID = "com.example.life";

describe("loading for tools", () => {
  it("a lazy load starts no code; concurrent tool runs share one load; the sandbox then stays loaded and idle", async () => {
    const started = await startRuntime();
    const { runtime } = started;
    await loadFixture(started, "tools", ID, {}, { lazy: true });
    expect(runtime.notifications(ExtensionTools)).toEqual([]);
    expect(runtime.notifications(ExtensionStatusChanged)).toEqual([]);
    const [a, b] = await Promise.all([
      runtime.call(ToolRun, { id: ID, tool: "echo", action: "go", values: { input: "a" } }),
      runtime.call(ToolRun, { id: ID, tool: "echo", action: "go", values: { input: "b" } }),
    ]);
    expect(JSON.parse(a.blocks[0].text).values.input).toBe("a");
    expect(JSON.parse(b.blocks[0].text).values.input).toBe("b");
    expect(runtime.notifications(ExtensionTools)).toHaveLength(1);
    const statuses = runtime.notifications(ExtensionStatusChanged).map((s) => s.status);
    expect(statuses).toEqual(["loaded", "running", "idle"]);
  });

  it("sends extension.tools again on every load", async () => {
    const started = await startRuntime();
    await loadFixture(started, "tools", ID);
    await loadFixture(started, "tools", ID);
    expect(started.runtime.notifications(ExtensionTools)).toHaveLength(2);
  });
});

describe("crash restarts", () => {
  it("restarts a crashed sandbox 3 times in 5 minutes, then keeps it crashed until the window passes", async () => {
    const started = await startRuntime({ SVC_RUNTIME_TEST_HOOKS: "1", SVC_RUNTIME_MEMORY_MB: "16" });
    const { runtime } = started;
    const ext = await buildFixture("crash", started.root.extensions, ID);
    await runtime.call(ExtensionLoad, { id: ID, path: ext.path, manifest: ext.manifest, preferences: {} });
    const crashedCount = () =>
      runtime.notifications(ExtensionStatusChanged).filter((s) => s.status === "crashed").length;

    for (let i = 1; i <= 3; i++) {
      const response = await runtime.request(ExtensionRun, { id: ID, trigger: { type: "manual" } });
      expect(response.error!.code).toBe(ErrorCodes.Crashed);
      await runtime.waitForNotification(ExtensionTools, () => true, i + 1, 15_000);
      expect(crashedCount()).toBe(i);
    }
    const crashed = runtime.notifications(ExtensionStatusChanged).find((s) => s.status === "crashed");
    expect(crashed.error).toBeTruthy();

    const fourth = await runtime.request(ExtensionRun, { id: ID, trigger: { type: "manual" } });
    expect(fourth.error!.code).toBe(ErrorCodes.Crashed);
    await runtime.waitFor(() => crashedCount() === 4);
    const refused = await runtime.request(ExtensionRun, { id: ID, trigger: { type: "interval" } });
    expect(refused.error!.code).toBe(ErrorCodes.Crashed);
    expect(refused.error!.message).toMatch(/restarted 3 times in the last 5 minutes/);
    expect(runtime.notifications(ExtensionTools)).toHaveLength(4);

    await runtime.call(TestAdvanceClock, { ms: 5 * 60 * 1000 });
    expect(await runtime.call(ExtensionRun, { id: ID, trigger: { type: "interval" } })).toEqual({});
    expect(runtime.notifications(ExtensionTools)).toHaveLength(5);
    expect(runtime.notifications(BlipUpdate).map((u) => u.payload.id)).toEqual([`${ID}/ok`]);
  }, 60_000);

  it("a sandbox that crashes while loading is retried through the same window", async () => {
    const started = await startRuntime({ SVC_RUNTIME_MEMORY_MB: "16" });
    const { runtime } = started;
    const ext = await buildFixture("crash-at-load", started.root.extensions, ID);
    const load = await runtime.request(ExtensionLoad, {
      id: ID,
      path: ext.path,
      manifest: ext.manifest,
      preferences: {},
    });
    expect(load.error!.code).toBe(ErrorCodes.ExtensionNotLoaded);
    expect(load.error!.message).toMatch(/could not be loaded: .*crashed/);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await runtime.request(ExtensionRun, { id: ID, trigger: { type: "manual" } })).error!.code);
    expect(codes).toEqual([
      ErrorCodes.ExtensionNotLoaded,
      ErrorCodes.ExtensionNotLoaded,
      ErrorCodes.ExtensionNotLoaded,
      ErrorCodes.Crashed,
    ]);
  }, 60_000);

  it("test.advanceClock is not served without SVC_RUNTIME_TEST_HOOKS=1", async () => {
    const { runtime } = await startRuntime();
    expect((await runtime.request(TestAdvanceClock, { ms: 1 })).error!.code).toBe(-32601);
  });
});

describe("compiled bundles", () => {
  it("keeps each extension's compiled bundle in <dataDir>/.compiled-code, and a new runtime starts from it", async () => {
    const first = await startRuntime();
    await loadFixture(first, "tools", ID);
    const folder = join(first.root.data, ".compiled-code");
    const named = (names: string[]) => names.filter((name) => /^com\.example\.life\.[0-9a-f]{64}\.qjsc$/.test(name));
    await expect.poll(() => (existsSync(folder) ? named(readdirSync(folder)) : [])).toHaveLength(1);
    const [stored] = named(readdirSync(folder));
    await first.runtime.shutdown();

    const second = await startRuntime({}, first.root);
    await loadFixture(second, "tools", ID);
    const result = await second.runtime.call(ToolRun, {
      id: ID,
      tool: "echo",
      action: "go",
      values: { input: "again" },
    });
    expect(JSON.parse(result.blocks[0].text).values.input).toBe("again");
    expect(readdirSync(folder)).toEqual([stored]);
  });

  it("starts from a bundle precompiled ahead (as svc-host install does): nothing is parsed or written at load", async () => {
    const started = await startRuntime();
    const ext = await buildFixture("tools", started.root.extensions, ID);
    const code = readFileSync(join(ext.path, "dist", "index.js"), "utf8");
    expect(await precompileExtension(started.root.data, ID, code)).toBe(true);
    const folder = join(started.root.data, ".compiled-code");
    const [precompiled] = readdirSync(folder);
    const written = statSync(join(folder, precompiled!)).mtimeMs;
    await started.runtime.call(ExtensionLoad, { id: ID, path: ext.path, manifest: ext.manifest, preferences: {} });
    const result = await started.runtime.call(ToolRun, {
      id: ID,
      tool: "echo",
      action: "go",
      values: { input: "ahead" },
    });
    expect(JSON.parse(result.blocks[0].text).values.input).toBe("ahead");
    // A parsed load would have the bundle compiled once the thread is quiet (50 ms) and written.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(readdirSync(folder)).toEqual([precompiled]);
    expect(statSync(join(folder, precompiled!)).mtimeMs).toBe(written);
  });
});
