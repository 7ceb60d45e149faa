/**
 * svc-runtime's test switches are never quiet and never half-read: a set one is announced on
 * stderr before anything runs; an unreadable one stops the runtime with the reason.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { RUNTIME_MAIN } from "./harness/client.js";

/** Starts svc-runtime with `env`, closes its stdin, and collects what it said and how it ended. */
function runtime(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [RUNTIME_MAIN], { env: { PATH: process.env.PATH ?? "", ...env } });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end();
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stderr })));
}

describe("svc-runtime's test switches", { timeout: 30_000 }, () => {
  it("refuses to start on an unreadable SVC_TEST_REPLAY or SVC_TEST_NOW, saying why", async () => {
    expect(await runtime({ SVC_TEST_REPLAY: '{"a.b.c": "x.json"}' })).toEqual({
      code: 2,
      stderr:
        'svc-runtime: SVC_TEST_REPLAY: the recording of "a.b.c" should be an absolute path: write it as {"<extension id>": "/absolute/path/recording.json"}\n',
    });
    expect(await runtime({ SVC_TEST_NOW: "yesterday" })).toEqual({
      code: 2,
      stderr: 'svc-runtime: SVC_TEST_NOW should be a time like 2025-06-10T09:20:00Z (with its zone), not "yesterday"\n',
    });
  });

  it("announces each switch that is set before anything runs", async () => {
    const { stderr } = await runtime({
      SVC_TEST_REPLAY: '{"com.example.weather": "/tmp/weather.json"}',
      SVC_TEST_NOW: "2025-06-10T09:20:00Z",
    });
    expect(stderr.split("\n").slice(0, 2)).toEqual([
      "svc-runtime: TEST SWITCH SVC_TEST_REPLAY is set: fetches of com.example.weather are answered from recordings, never the network. Not for normal use.",
      expect.stringMatching(
        /^svc-runtime: TEST SWITCH SVC_TEST_NOW is set: every extension's clock starts at 2025-06-10T09:20:00\.\d{3}Z\. Not for normal use\.$/,
      ),
    ]);
  });
});
