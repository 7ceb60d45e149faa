import { describe, expect, it } from "vitest";
import { ManualClock } from "../clock/index.js";
import { runControlLine, type ControlOptions } from "./control-channel.js";

function options(clock?: ManualClock) {
  const calls: string[] = [];
  const opts: ControlOptions = {
    input: undefined as never,
    clock,
    now: () => 0,
    emit: () => {},
    host: {
      pause: () => void calls.push("pause"),
      resume: () => void calls.push("resume"),
      runNow: (id, trigger) => (calls.push(`run ${id} ${trigger}`), id === "a.b"),
      action: async (press) => {
        calls.push(`action ${press.blipId} ${press.actionId} ${press.input ?? ""}`);
        if (press.actionId === "boom") throw new Error("onAction threw");
      },
      setPreference: async (id, name, value) => {
        calls.push(`set ${id} ${name} ${JSON.stringify(value)}`);
        if (name === "nope") throw new Error('a.b has no option "nope"; its options are: region');
      },
      stop: async () => void calls.push("stop"),
    },
  };
  return { opts, calls };
}

describe("control channel", () => {
  it("runs each command", async () => {
    const clock = new ManualClock(0);
    const { opts, calls } = options(clock);
    for (const line of [
      '{"command":"pause"}',
      '{"command":"resume"}',
      '{"command":"run","id":"a.b"}',
      '{"command":"run","id":"a.b","trigger":"preferences"}',
      '{"command":"action","blipId":"a.b/k","actionId":"go","input":"x"}',
      '{"command":"stop"}',
    ]) {
      expect(await runControlLine(line, opts)).toEqual({ command: JSON.parse(line).command });
    }
    expect(calls).toEqual(["pause", "resume", "run a.b manual", "run a.b preferences", "action a.b/k go x", "stop"]);
    expect(await runControlLine('{"command":"advance","ms":1500}', opts)).toEqual({ command: "advance" });
    expect(clock.now()).toBe(1500);
  });

  it("passes a Settings change on, value and all (null clears)", async () => {
    const { opts, calls } = options();
    expect(await runControlLine('{"command":"set-preference","id":"a.b","name":"region","value":"us"}', opts)).toEqual({
      command: "set-preference",
    });
    expect(await runControlLine('{"command":"set-preference","id":"a.b","name":"region","value":null}', opts)).toEqual({
      command: "set-preference",
    });
    expect(calls).toEqual(['set a.b region "us"', "set a.b region null"]);
  });

  it("answers bad commands with what to do", async () => {
    const { opts } = options();
    expect(await runControlLine("nope", opts)).toEqual({ command: "?", error: "not JSON: nope" });
    expect(await runControlLine('{"command":"dance"}', opts)).toEqual({
      command: "dance",
      error: "unknown command: use pause, resume, run, action, set-preference, advance or stop",
    });
    expect(await runControlLine('{"command":"advance","ms":5}', opts)).toEqual({
      command: "advance",
      error: "the clock is not manual: start svc-host with SVC_HOST_CLOCK=manual",
    });
    expect(await runControlLine('{"command":"run","id":"x.y"}', opts)).toEqual({
      command: "run",
      error: "no loaded extension x.y",
    });
    expect(await runControlLine('{"command":"run"}', opts)).toEqual({
      command: "run",
      error: 'needs "id": the extension id',
    });
    expect(await runControlLine('{"command":"action","blipId":"a.b/k","actionId":"boom"}', opts)).toEqual({
      command: "action",
      error: "onAction threw",
    });
    expect(await runControlLine('{"command":"set-preference","id":"a.b","name":"nope","value":1}', opts)).toEqual({
      command: "set-preference",
      error: 'a.b has no option "nope"; its options are: region',
    });
    expect(await runControlLine('{"command":"set-preference","id":"a.b","name":"region"}', opts)).toEqual({
      command: "set-preference",
      error: 'needs "value" for "region"; null clears it',
    });
    expect(await runControlLine('{"command":"set-preference","name":"region","value":"us"}', opts)).toEqual({
      command: "set-preference",
      error: 'needs "id" (the extension id), "name" (the option) and "value" (null clears it)',
    });
    const clocked = options(new ManualClock(0)).opts;
    expect(await runControlLine('{"command":"advance","ms":-1}', clocked)).toEqual({
      command: "advance",
      error: '"ms" should be a number of milliseconds, 0 or more',
    });
  });
});
