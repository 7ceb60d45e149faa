/** Shared setup for the runtime process tests: a temp support folder and a started runtime. */
import { rmSync } from "node:fs";
import { afterAll, afterEach } from "vitest";
import { ExtensionLoad, Initialize } from "@svc/runtime";
import { RuntimeProcess } from "./client.js";
import { buildFixture, tempRoot, type BuiltExtension, type Permissions } from "./fixtures.js";

export interface Started {
  runtime: RuntimeProcess;
  root: ReturnType<typeof tempRoot>;
}

const running: RuntimeProcess[] = [];
const roots: string[] = [];
const shared: Array<{ runtime: RuntimeProcess; root: string }> = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.shutdown()));
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

afterAll(async () => {
  for (const { runtime, root } of shared.splice(0)) {
    await runtime.shutdown();
    rmSync(root, { recursive: true, force: true });
  }
});

/**
 * One initialized runtime for a whole file (the QuickJS module compiles once per process, so
 * this saves seconds per test); tests then use their own extension ids. Stopped after the file.
 */
export async function startSharedRuntime(env: Record<string, string> = {}): Promise<Started> {
  const root = tempRoot();
  const runtime = new RuntimeProcess(env);
  shared.push({ runtime, root: root.root });
  await runtime.call(Initialize, {
    protocolVersion: 1,
    dataDir: root.data,
    locale: "en-GB",
    timeZone: "Europe/London",
  });
  return { runtime, root };
}

let idCounter = 0;
/** A fresh extension id for a test on a shared runtime. */
export function freshId(base: string): string {
  return `${base}.t${++idCounter}`;
}

/** Spawns the runtime (not yet initialized) with a fresh temp support folder. */
export function spawnRuntime(env: Record<string, string> = {}, root = tempRoot()): Started {
  const runtime = new RuntimeProcess(env);
  running.push(runtime);
  if (!roots.includes(root.root)) roots.push(root.root);
  return { runtime, root };
}

/** Spawns and initializes the runtime. */
export async function startRuntime(env: Record<string, string> = {}, root = tempRoot()): Promise<Started> {
  const started = spawnRuntime(env, root);
  await started.runtime.call(Initialize, {
    protocolVersion: 1,
    dataDir: started.root.data,
    locale: "en-GB",
    timeZone: "Europe/London",
  });
  return started;
}

/** Builds a fixture into the support folder and loads it. */
export async function loadFixture(
  started: Started,
  name: string,
  id: string,
  preferences: Record<string, unknown> = {},
  options: { permissions?: Permissions; lazy?: boolean } = {},
): Promise<BuiltExtension> {
  const ext = await buildFixture(name, started.root.extensions, id, options.permissions);
  await started.runtime.call(ExtensionLoad, {
    id: ext.id,
    path: ext.path,
    manifest: ext.manifest,
    preferences,
    ...(options.lazy ? { lazy: true } : {}),
  });
  return ext;
}
