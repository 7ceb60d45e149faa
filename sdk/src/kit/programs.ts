/**
 * Running a program without a try/catch at every call: `runProgram` never throws and says what
 * happened in the terms a blip needs — it ran (any exit code), it is not installed, or it could
 * not run (refused by the fence, timed out, over the output limit). Like `probe` for fetch.
 */
import type { Ctx, ExecOptions } from "../types.js";
import { programNotFound } from "../schemas/programs.js";

export type ProgramRun =
  /** It ran; `code` is its exit code (0 is success for most programs). */
  | { ran: true; stdout: string; stderr: string; code: number }
  /** `missing`: listed in permissions.exec but not installed; `failed`: it could not run, `message` says why. */
  | { ran: false; kind: "missing" | "failed"; message: string };

/** True when `ctx.exec` rejected because the program is not installed. */
function isMissing(file: string, error: unknown): boolean {
  return error instanceof Error && error.message === programNotFound(file);
}

/**
 * @example
 * const run = await runProgram(ctx, "playerctl", ["status"]);
 * if (!run.ran && run.kind === "missing") return ctx.emit(stat("np", { title: "Now Playing", value: "playerctl is not installed" }));
 * if (run.ran && run.code === 0) ctx.log.info(run.stdout.trim()); // "Playing"
 */
export async function runProgram(
  ctx: Pick<Ctx, "exec">,
  file: string,
  args: string[] = [],
  options: ExecOptions = {},
): Promise<ProgramRun> {
  try {
    const result = await ctx.exec(file, args, options);
    return { ran: true, stdout: result.stdout, stderr: result.stderr, code: result.code };
  } catch (error) {
    if (isMissing(file, error)) return { ran: false, kind: "missing", message: `${file} is not installed` };
    return { ran: false, kind: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}
