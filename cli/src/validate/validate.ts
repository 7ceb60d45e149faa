/**
 * `svckit validate`: the extension checked like `build` checks it, then run once in the
 * app's sandbox against a mock app: `update()`, and with `--tool` one tool too.
 */
import type { CallContext, SandboxEvent } from "@svc/sandbox";
import { FakeForwardedCalls } from "@svc/testkit";
import type { Output } from "../command.js";
import { CliError } from "../errors.js";
import { formatJson } from "../format-json.js";
import { checkExtension } from "../build/pipeline.js";
import { blipIconWarnings } from "../build/icon-check.js";
import { withSandbox } from "../build/sandbox-session.js";
import { describeGuestError, keepsSvcFrames, parseSourceMap } from "@svc/runtime";
import { chosenPreferences, shownPreferences, unsetRequiredProblems } from "./preferences.js";
import { planToolRun, runTool, type ToolRequest } from "./run-tool.js";

/** The host gives up on `update()` after 30 s (SPEC.md Limits); so do we. */
export const UPDATE_TIMEOUT_MS = 30_000;
/** The worker aborts a tool's signal at 30 s. */
export const TOOL_TIMEOUT_MS = 30_000;

/**
 * @example
 * await validateExtension("/path/to/ext", { tool: { name: "uuid" } }, ctx.out, ctx.signal);
 * @throws CliError when anything would not work in the app.
 */
export async function validateExtension(
  dir: string,
  options: { tool?: ToolRequest; prefs?: string; env?: Readonly<Record<string, string | undefined>> },
  out: Output,
  signal: AbortSignal,
): Promise<void> {
  const checked = await checkExtension(dir, out, "validate");
  const toolPlan = options.tool ? planToolRun(checked.tools, options.tool) : undefined;
  const toolNames = checked.tools.map((t) => t.id);
  out.info(
    `${checked.id} ${checked.version}: manifest ok, ` +
      (toolNames.length > 0 ? `tools ok (${toolNames.join(", ")})` : "no tools"),
  );

  const sourceMap = checked.report.sourceMap === undefined ? undefined : parseSourceMap(checked.report.sourceMap);
  // The app as a fresh install (the test kit's fake host): no secrets, no sign-ins, no working hours.
  const host = new FakeForwardedCalls(checked.id, out, {
    extensionId: checked.id,
    title: checked.manifest.svc.title,
    preferences: checked.manifest.svc.preferences,
    providers: Object.keys(checked.manifest.svc.oauth ?? {}),
    formatJson,
  });
  const problems: string[] = [];
  const preferences = chosenPreferences(checked.manifest.svc, options.prefs, options.env ?? {});
  // Said up front; update() still runs, to show what it does without them.
  for (const line of unsetRequiredProblems(checked.manifest.svc, preferences)) {
    out.warn(line);
    problems.push(line);
  }
  await withSandbox(
    {
      id: checked.id,
      code: checked.code,
      permissions: checked.manifest.svc.permissions,
      forwarded: host,
      onEvent: (e) => report(e, out),
    },
    async (sandbox) => {
      const loaded = await sandbox.load();
      if (loaded.hasUpdate) {
        const ctx: CallContext = { trigger: { type: "manual" }, preferences };
        out.info(`update() with preferences ${JSON.stringify(shownPreferences(checked.manifest.svc, preferences))}:`);
        try {
          const result = await sandbox.invoke(
            { kind: "update", ctx },
            { signal: AbortSignal.any([signal, AbortSignal.timeout(UPDATE_TIMEOUT_MS)]) },
          );
          const next = (result as { nextRunAfter?: unknown } | null)?.nextRunAfter;
          out.info(`update() finished${typeof next === "number" ? `; next run after ${next}s` : ""}`);
        } catch (error) {
          const line = `update() failed: ${(error as Error).message.split("\n")[0]}`;
          out.warn(line);
          // Where, in the author's source: the same lines the app's log shows.
          const stack = (error as { guestStack?: unknown }).guestStack;
          if (typeof stack === "string")
            for (const frame of describeGuestError("update()", "", stack, sourceMap, keepsSvcFrames(options.env ?? {}))
              .split("\n")
              .slice(1))
              out.warn(frame);
          problems.push(line);
        }
        if (host.emitted.length === 0) out.info("update() emitted no blips");
        for (const blip of host.emitted)
          if (blip.ok) for (const line of blipIconWarnings(blip.blipId, blip.payload)) out.warn(`warning: ${line}`);
      } else {
        out.info("no update(): a tools-only extension");
      }
      if (toolPlan) {
        const toolSignal = AbortSignal.any([signal, AbortSignal.timeout(TOOL_TIMEOUT_MS)]);
        problems.push(...(await runTool(sandbox, toolPlan, { preferences }, toolSignal, out)));
      }
    },
  );
  problems.push(...host.problems);
  if (problems.length > 0) {
    throw new CliError(
      `validate failed: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} (see above)`,
    );
  }
  out.info("valid");
}

function report(event: SandboxEvent, out: Output): void {
  if (event.type === "denied") {
    out.warn(`denied: ${event.denial.reason}${event.denial.fix ? `; ${event.denial.fix}` : ""}`);
  } else if (event.type === "interrupted") {
    out.warn(`interrupted: a slice of code ran over ${event.sliceMs} ms without yielding`);
  } else if (event.type === "throttled") {
    out.warn(`throttled: used more than ${event.budgetMs} ms of CPU in ${event.windowMs / 1000} s`);
  } else {
    out.warn(`out of memory: the heap reached its limit (${event.heapUsed} bytes in use)`);
  }
}
