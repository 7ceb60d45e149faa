/**
 * svc's two switches for tests only, read from the environment. Both are announced by
 * svc-runtime on stderr when set, and an unreadable value stops it from starting
 * (runtime/src/main.ts); both are listed in sandbox/README.md's threat model. This file holds
 * only their parsing (nothing heavy), so svc-runtime reads them before its sandbox threads start.
 *
 * - `SVC_TEST_REPLAY='{"<extension id>": "/abs/recording.json"}'`: those extensions' fetches are
 *   answered from the recording, after the fence checked each hop (capabilities/replay-switch.ts).
 * - `SVC_TEST_NOW=<ISO 8601 time>`: every guest's clock (its `Date`, `performance.now()` base and
 *   timers) starts at that moment and runs on at the real pace, so a recording made at a known
 *   time (a forecast, a calendar) replays as it was; the host's schedule is unchanged.
 */
import { isAbsolute } from "node:path";
import type { SandboxClock } from "./types.js";

export const REPLAY_ENV = "SVC_TEST_REPLAY";

/**
 * The extension ids and their recording files, `undefined` when the switch is off; throws with
 * a message naming what is wrong when it is set but unreadable.
 *
 * @example
 * replayFiles({ SVC_TEST_REPLAY: '{"app.svc.weather":"/t/weather.json"}' }) // Map { "app.svc.weather" => "/t/weather.json" }
 */
export function replayFiles(env: Readonly<Record<string, string | undefined>>): Map<string, string> | undefined {
  const raw = env[REPLAY_ENV];
  if (raw === undefined || raw === "") return undefined;
  const usage = `write it as {"<extension id>": "/absolute/path/recording.json"}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${REPLAY_ENV} is not JSON (${(error as Error).message}): ${usage}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`${REPLAY_ENV} should be a JSON object: ${usage}`);
  const files = new Map<string, string>();
  for (const [id, file] of Object.entries(parsed)) {
    if (typeof file !== "string" || !isAbsolute(file))
      throw new Error(`${REPLAY_ENV}: the recording of ${JSON.stringify(id)} should be an absolute path: ${usage}`);
    files.set(id, file);
  }
  return files;
}

export const TEST_NOW_ENV = "SVC_TEST_NOW";

/**
 * The guests' clock for the switch, `undefined` when it is off; throws naming what is wrong.
 *
 * @example
 * testClock({ SVC_TEST_NOW: "2025-06-10T09:20:00Z" })!.now() // 1749547200000, then onwards
 */
export function testClock(env: Readonly<Record<string, string | undefined>>): SandboxClock | undefined {
  const raw = env[TEST_NOW_ENV];
  if (raw === undefined || raw === "") return undefined;
  const start = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(start))
    throw new Error(
      `${TEST_NOW_ENV} should be a time like 2025-06-10T09:20:00Z (with its zone), not ${JSON.stringify(raw.slice(0, 40))}`,
    );
  const offset = start - Date.now();
  return {
    now: () => Date.now() + offset,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}
