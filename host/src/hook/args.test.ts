import { describe, expect, it } from "vitest";
import { parseFraction, parseHookArgs, UsageError } from "./args.js";

const command = (...argv: string[]) => parseHookArgs(argv).command;

describe("parseHookArgs", () => {
  it("reads start with its options in any place", () => {
    expect(command("start", "Deploy api", "--id", "deploy-api", "--icon=shippingbox")).toEqual({
      kind: "start",
      title: "Deploy api",
      id: "deploy-api",
      icon: "shippingbox",
      step: undefined,
    });
    expect(command("--step", "Building", "start", "Deploy")).toMatchObject({
      kind: "start",
      title: "Deploy",
      step: "Building",
    });
  });

  it("reads step with a fraction, a percentage, or text only", () => {
    expect(command("step", "d", "0.4", "Running migrations")).toEqual({
      kind: "step",
      id: "d",
      fraction: 0.4,
      text: "Running migrations",
    });
    expect(command("step", "d", "40%")).toEqual({ kind: "step", id: "d", fraction: 0.4 });
    expect(command("step", "d", "Linting")).toEqual({ kind: "step", id: "d", text: "Linting" });
  });

  it("reads end with a default state and a 30 s dismissal", () => {
    expect(command("end", "d")).toEqual({ kind: "end", id: "d", state: "success", dismissAfter: 30 });
    expect(command("end", "d", "failure", "--keep")).toEqual({
      kind: "end",
      id: "d",
      state: "failure",
      dismissAfter: undefined,
    });
    expect(command("end", "d", "--dismiss", "5")).toEqual({ kind: "end", id: "d", state: "success", dismissAfter: 5 });
  });

  it("reads remove, help and --strict", () => {
    expect(command("remove", "d")).toEqual({ kind: "remove", id: "d" });
    expect(command()).toEqual({ kind: "help" });
    expect(command("-h")).toEqual({ kind: "help" });
    expect(command("start", "x", "--help")).toEqual({ kind: "help" });
    expect(parseHookArgs(["remove", "d", "--strict"]).strict).toBe(true);
  });

  it("explains mistakes", () => {
    const cases: Array<[string[], string]> = [
      [["start"], 'usage: svc-hook start "<title>" [--id <id>] [--icon <symbol>] [--step <text>]'],
      [["start", "Deploy", "api"], 'start takes one title; put it in quotes: svc-hook start "Deploy api"'],
      [["step", "d", "half", "x"], '"half" is not a fraction: give 0–1 (0.4) or a percentage (40%)'],
      [["step", "d", "1.5", "x"], "the fraction 1.5 is over 1: give 0–1 (0.4) or a percentage (40%)"],
      [["end", "d", "--dismiss", "5", "--keep"], "give --dismiss or --keep, not both"],
      [["end", "d", "--dismiss", "soon"], "--dismiss takes seconds, like --dismiss 30"],
      [["start", "x", "--id"], "--id needs a value"],
      [["start", "x", "--colour", "red"], "unknown option --colour"],
      [["remove", "d", "--icon", "x"], "--icon does not go with remove"],
      [["launch"], 'unknown command "launch": use start, step, end, remove or send'],
      [["send"], "usage: svc-hook send <extension-id> [<json>] [--wait <seconds>] [--otherwise <json>]"],
      [["send", "x.y", "{", "--wait", "5"], `the body is not JSON (${jsonError("{")}); quote it: '{"a": 1}'`],
      [["send", "x.y", "{}", "{}"], "send takes an extension id and one JSON body; put the body in quotes"],
      [["send", "x.y", "--wait", "601"], "--wait takes whole seconds from 0 to 600, like --wait 50"],
      [["send", "x.y", "--wait", "1.5"], "--wait takes whole seconds from 0 to 600, like --wait 50"],
      [
        ["send", "x.y", "--otherwise", "{}"],
        "--otherwise goes with --wait: without a wait there is no answer to replace",
      ],
      [
        ["send", "x.y", "--wait", "5", "--otherwise", "ask"],
        `--otherwise is not JSON (${jsonError("ask")}); quote it: '{"a": 1}'`,
      ],
      [["send", "x.y", "--id", "a"], "--id does not go with send"],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseHookArgs(argv), argv.join(" ")).toThrow(new UsageError(message));
    }
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

describe("send", () => {
  it("reads the extension, the body, the wait up to 600 s and the JSON printed when no answer comes", () => {
    expect(parseHookArgs(["send", "app.svc.agents"]).command).toEqual({ kind: "send", extensionId: "app.svc.agents" });
    expect(
      parseHookArgs(["send", "app.svc.agents", '{"a":1}', "--wait", "600", "--otherwise", '{"decision":"ask"}'])
        .command,
    ).toEqual({
      kind: "send",
      extensionId: "app.svc.agents",
      body: '{"a":1}',
      wait: 600,
      otherwise: '{"decision":"ask"}',
    });
    expect(parseHookArgs(["send", "x.y", "--wait=0"]).command).toEqual({ kind: "send", extensionId: "x.y", wait: 0 });
  });
});

describe("parseFraction", () => {
  it("reads 0–1 and percentages up to 100%", () => {
    expect(parseFraction("0")).toBe(0);
    expect(parseFraction(".5")).toBe(0.5);
    expect(parseFraction("1")).toBe(1);
    expect(parseFraction("100%")).toBe(1);
    expect(parseFraction("abc")).toBeUndefined();
    expect(() => parseFraction("101%")).toThrow(UsageError);
  });
});
