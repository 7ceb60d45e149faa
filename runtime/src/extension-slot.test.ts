/**
 * Crash-restart accounting of one slot, with a scripted sandbox factory: the process tests cover
 * real crashes; a neighbour's crash (guilty: false) cannot be provoked from a fixture, so its
 * rule is checked here.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxHandle, SandboxListeners } from "@svc/sandbox";
import { OffsetClock } from "./clock.js";
import { DEFAULT_CONFIG } from "./config.js";
import { Connection } from "./connection.js";
import { ExtensionSlot } from "./extension-slot.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function setup() {
  const root = mkdtempSync(join(tmpdir(), "svc-slot-"));
  roots.push(root);
  mkdirSync(join(root, "ext", "dist"), { recursive: true });
  writeFileSync(join(root, "ext", "dist", "index.js"), "module.exports = {};");
  const sent: any[] = [];
  const waiters = new Set<() => void>();
  const connection = new Connection({
    write: (m) => {
      sent.push(m);
      for (const wake of [...waiters]) wake();
    },
  });
  const listeners: SandboxListeners[] = [];
  const sandboxes = {
    create(_options: unknown, l: SandboxListeners): SandboxHandle {
      listeners.push(l);
      return {
        id: "a.b",
        load: async () => ({ tools: {}, hasUpdate: true, hasOnEvent: false, hasOnAction: false }),
        invoke: async () => null,
        start: () => ({ result: Promise.resolve(null), abort: () => {} }),
        lastCallUsage: undefined,
        diagnostics: async () => ({
          heapUsed: 1,
          cpuMs: 0,
          longestSliceMs: 0,
          interruptedSlices: 0,
          memoryLimitHits: 0,
          nearLimitSlices: 0,
          throttles: 0,
          delayedTimers: 0,
          droppedLogLines: 0,
          denials: [],
        }),
        dispose: async () => {},
      };
    },
  };
  const slot = new ExtensionSlot(
    "a.b",
    {
      path: join(root, "ext"),
      manifest: { permissions: { network: [], files: [], exec: [], runAnyCommand: false } },
      preferences: {},
      grantedOrigins: [],
    },
    {
      connection,
      config: DEFAULT_CONFIG,
      clock: new OffsetClock(() => 0),
      sandboxes,
      dataRoot: join(root, "Data"),
      note: () => {},
    },
  );
  const loads = () => sent.filter((m) => m.method === "extension.tools").length;
  /** Resolves once the slot has loaded `count` times in all (a restart is asynchronous). */
  const loaded = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (loads() < count) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { slot, listeners, loads, loaded };
}

describe("ExtensionSlot crash restarts", () => {
  it("reloads after a neighbour's crash without counting it against the window", async () => {
    const { slot, listeners, loads, loaded } = setup();
    await slot.load(slot["registration"], false);
    for (let i = 0; i < 5; i++) {
      listeners.at(-1)!.onCrash!({ reason: "sandbox thread replaced", guilty: false });
      await loaded(2 + i);
    }
    expect(loads()).toBe(6);
    expect(slot.restarts.count()).toBe(0);
    for (let i = 0; i < 3; i++) {
      listeners.at(-1)!.onCrash!({ reason: "out of memory", guilty: true });
      await loaded(7 + i);
    }
    expect(loads()).toBe(9);
    // The fourth guilty crash in the window: not restarted (a restart under way would make it live).
    listeners.at(-1)!.onCrash!({ reason: "out of memory", guilty: true });
    await expect(slot.ensureLive()).rejects.toMatchObject({ code: -32004 });
  });

  it("ignores a crash report from a generation already replaced", async () => {
    const { slot, listeners, loads } = setup();
    await slot.load(slot["registration"], false);
    await slot.load(slot["registration"], false);
    // A stale generation's report is dropped: nothing counted, the live generation untouched.
    listeners[0].onCrash!({ reason: "late", guilty: true });
    expect(slot.restarts.count()).toBe(0);
    await slot.ensureLive();
    expect(loads()).toBe(2);
  });
});
