/**
 * The fake app as a bare sandbox's `ForwardedCalls` (what `svckit validate` runs against): every
 * `host.*` op is answered by the one `FakeHost`, and the blip ops are passed through the SDK's
 * processing (validation, cuts, the 4 KB drop) with a seq per blip, and printed: the payload,
 * its cuts, or why the app would drop it.
 */
import { escapeForDisplay, processBlipInput } from "@svc/api";
import type { ForwardedOp, ForwardedCalls } from "@svc/sandbox";
import {
  askHost,
  checkedParams,
  checkedResult,
  checkEndArgs,
  checkLogArgs,
  checkRemoveArgs,
  HOST_REQUESTS,
  ReplyBook,
  takeResponse,
  type HostOp,
} from "@svc/runtime";
import { FakeHost, type FakeHostOptions } from "./fake-host.js";

/** Where the lines go: svckit's output. */
export interface LineOutput {
  info(line: string): void;
  warn(line: string): void;
}

/** A blip as the app would receive it, or why it would not. */
export type EmittedBlip =
  { blipId: string; ok: true; payload: unknown; truncated: string[] } | { blipId: string; ok: false; error: string };

/**
 * @example
 * const host = new FakeForwardedCalls("com.example.x", ctx.out);
 * // pass `host` as the sandbox's ForwardedCalls; afterwards read host.emitted and host.problems
 */
export class FakeForwardedCalls implements ForwardedCalls {
  readonly emitted: EmittedBlip[] = [];
  /** Lines that make `validate` fail: dropped payloads. */
  readonly problems: string[] = [];
  readonly app: FakeHost;
  /** The webhook replies the extension may answer (`ctx.respond`): none unless a test expects one. */
  readonly replies = new ReplyBook();
  private readonly seqs = new Map<string, number>();
  private readonly formatJson: (value: unknown) => string;
  private readonly out: LineOutput;

  constructor(
    private readonly extensionId: string,
    out: LineOutput,
    options: Omit<FakeHostOptions, "report"> & { formatJson?: (value: unknown) => string } = {},
  ) {
    // Every line holds the extension's strings: shown inert, whatever they hold.
    this.out = {
      info: (line) => out.info(escapeForDisplay(line, { multiline: true })),
      warn: (line) => out.warn(escapeForDisplay(line, { multiline: true })),
    };
    this.formatJson = options.formatJson ?? ((value) => JSON.stringify(value, null, 2));
    this.app = new FakeHost({ ...options, report: (line) => this.out.info(line) });
    this.providers = options.providers;
  }

  /** The manifest's sign-in providers, when known: none means no Sign in action, as in the app. */
  private readonly providers: readonly string[] | undefined;

  async forward(op: ForwardedOp, args: unknown): Promise<unknown> {
    const fields = (args !== null && typeof args === "object" ? args : {}) as Record<string, unknown>;
    switch (op) {
      case "emit":
        // The sandbox forwards `ctx.emit(blip)` as `{blip}`.
        this.emit(fields.blip);
        return null;
      // The runtime's own checks, so the fake refuses what the app refuses, in the same words.
      case "end":
        checkEndArgs(fields);
        this.out.info(`end ${this.blipId(fields.key)}${describeFields(fields, ["state", "dismissAfter"])}`);
        return null;
      case "remove":
        checkRemoveArgs(fields);
        this.out.info(`remove ${this.blipId(fields.key)}`);
        return null;
      case "respond": {
        const { replyId, status, body } = takeResponse(fields, this.replies);
        this.out.info(`respond ${replyId} (${status}): ${JSON.stringify(body)}`);
        return null;
      }
      case "log": {
        const { level, message } = checkLogArgs(fields);
        this.out.info(`log [${level}] ${message}`);
        return null;
      }
      default:
        if (!Object.hasOwn(HOST_REQUESTS, op)) throw new Error(`unknown operation "${String(op)}"`);
        // Asked as the runtime asks it: the same params, checks and error words.
        return askHost(op as HostOp, this.extensionId, fields, async (type, params) =>
          checkedResult(type, await this.app.answer(op as HostOp, checkedParams(type, params))),
        );
    }
  }

  private blipId(key: unknown): string {
    return `${this.extensionId}/${typeof key === "string" ? key : "?"}`;
  }

  private emit(blip: unknown): void {
    const blipId = this.blipId((blip as { key?: unknown } | null)?.key);
    const seq = (this.seqs.get(blipId) ?? 0) + 1;
    const processed = processBlipInput(blip, {
      extensionId: this.extensionId,
      seq,
      ...(this.providers ? { signIn: this.providers.length > 0 } : {}),
    });
    if (!processed.ok) {
      this.emitted.push({ blipId, ok: false, error: processed.error });
      for (const error of processed.errors) {
        const line = `emit ${blipId}: DROPPED: ${error}`;
        this.problems.push(line);
        this.out.warn(line);
      }
      return;
    }
    this.seqs.set(blipId, seq);
    this.emitted.push({ blipId, ok: true, payload: processed.payload, truncated: processed.truncated });
    const { layout, title } = processed.payload as { layout?: string; title?: string };
    this.out.info(`emit ${blipId} (${layout ?? "?"}) "${title ?? ""}"`);
    for (const line of this.formatJson(processed.payload).split("\n")) this.out.info(`  ${line}`);
    if (processed.truncated.length > 0) this.out.info(`  cut to the limits: ${processed.truncated.join(", ")}`);
  }
}

function describeFields(fields: Record<string, unknown>, names: string[]): string {
  const present = names
    .filter((name) => fields[name] !== undefined)
    .map((name) => `${name} ${JSON.stringify(fields[name])}`);
  return present.length > 0 ? ` (${present.join(", ")})` : "";
}
