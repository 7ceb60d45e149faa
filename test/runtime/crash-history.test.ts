/**
 * Crash history survives the reloads an extension causes itself: `ctx.setPreference` makes the
 * host reload it (a new `extension.load` with the new preferences), and that must not reset the
 * 3-restarts-in-5-minutes window (a red team crashed an extension 7 times in 9 s that way).
 * A reload nobody asked for from inside (new code, the person's own change) still starts afresh.
 */
import { describe, expect, it } from "vitest";
import {
  ErrorCodes,
  ExtensionLoad,
  ExtensionRun,
  ExtensionStatusChanged,
  HostPreferencesSet,
  Log,
  TestAdvanceClock,
} from "@svc/runtime";
import { buildFixture } from "./harness/fixtures.js";
import { startRuntime } from "./harness/setup.js";

const ID = "com.example.crashy";

describe("crash history across reloads", () => {
  it("a crash right after ctx.setPreference, reloaded as the host does, still counts: the 4th is refused", async () => {
    const started = await startRuntime({ SVC_RUNTIME_TEST_HOOKS: "1", SVC_RUNTIME_MEMORY_MB: "16" });
    const { runtime } = started;
    const ext = await buildFixture("crash-after-preference", started.root.extensions, ID);
    let preferences: Record<string, unknown> = {};
    const reloads: Promise<unknown>[] = [];
    const statuses = (status: string) =>
      runtime.notifications(ExtensionStatusChanged).filter((s) => s.status === status).length;
    const crashes = () => statuses("crashed");
    const refusedRestart = () => runtime.notifications(Log).some((l) => l.message.includes("not restarted"));
    // The host's side: store the preference, answer, then reload the extension with it, once the
    // crash that follows the change is over: told, and the runtime's own restart done (or
    // refused). The case under test is crash, restart, then the reload; waiting on those
    // notifications, not a fixed delay, keeps that order on a busy machine.
    runtime.serve(HostPreferencesSet, ({ name, value }) => {
      preferences = { ...preferences, [name]: value };
      const [crashed, loaded] = [crashes() + 1, statuses("loaded")];
      const reload = runtime
        .waitFor(
          () => crashes() >= crashed && (statuses("loaded") > loaded || refusedRestart()),
          30_000,
          "the crash after the preference change, and the runtime's restart or its refusal",
        )
        .then(() => runtime.request(ExtensionLoad, { id: ID, path: ext.path, manifest: ext.manifest, preferences }));
      reloads.push(reload);
      return {};
    });
    await runtime.call(ExtensionLoad, { id: ID, path: ext.path, manifest: ext.manifest, preferences });

    for (let round = 1; round <= 4; round++) {
      const response = await runtime.request(ExtensionRun, { id: ID, trigger: { type: "manual" } });
      expect({ round, code: response.error?.code }).toEqual({ round, code: ErrorCodes.Crashed });
      await runtime.waitFor(() => crashes() >= round, 15_000);
      expect(reloads).toHaveLength(1);
      await Promise.all(reloads.splice(0));
    }
    const refused = await runtime.request(ExtensionRun, { id: ID, trigger: { type: "interval" } });
    expect(refused.error!.code).toBe(ErrorCodes.Crashed);
    expect(refused.error!.message).toMatch(/restarted 3 times in the last 5 minutes/);

    // Past the window it runs again; and a reload the extension did not ask for starts afresh.
    await runtime.call(TestAdvanceClock, { ms: 5 * 60 * 1000 });
    await runtime.call(ExtensionLoad, { id: ID, path: ext.path, manifest: ext.manifest, preferences });
    await expect(runtime.call(ExtensionRun, { id: ID, trigger: { type: "interval" } })).resolves.toEqual({});
  });
});
