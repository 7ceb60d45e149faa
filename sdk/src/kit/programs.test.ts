import { describe, expect, it } from "vitest";
import { programNotFound } from "../schemas/programs.js";
import { runProgram } from "./programs.js";

/** ctx.exec answering as the fence does: the outcome a test names. */
function exec(outcome: { stdout?: string; stderr?: string; code?: number } | Error) {
  return {
    exec: async () => {
      if (outcome instanceof Error) throw outcome;
      return { stdout: outcome.stdout ?? "", stderr: outcome.stderr ?? "", code: outcome.code ?? 0 };
    },
  };
}

describe("runProgram", () => {
  it("gives a run's output and exit code, a failing exit included", async () => {
    expect(await runProgram(exec({ stdout: "Playing\n" }), "playerctl", ["status"])).toEqual({
      ran: true,
      stdout: "Playing\n",
      stderr: "",
      code: 0,
    });
    expect(await runProgram(exec({ stderr: "No players found\n", code: 1 }), "playerctl")).toEqual({
      ran: true,
      stdout: "",
      stderr: "No players found\n",
      code: 1,
    });
  });

  it("reads the fence's not-found rejection as missing, for that program only", async () => {
    expect(await runProgram(exec(new Error(programNotFound("playerctl"))), "playerctl")).toEqual({
      ran: false,
      kind: "missing",
      message: "playerctl is not installed",
    });
    expect(programNotFound("/usr/bin/pmset")).toBe('exec: "/usr/bin/pmset" was not found');
    // Another program's wording is not this one missing.
    expect(await runProgram(exec(new Error(programNotFound("nmcli"))), "playerctl")).toMatchObject({ kind: "failed" });
  });

  it("any other rejection is failed, with its message", async () => {
    const refused = new Error('exec denied: "sh" is not in permissions.exec');
    expect(await runProgram(exec(refused), "sh")).toEqual({ ran: false, kind: "failed", message: refused.message });
  });
});
