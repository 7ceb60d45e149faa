/**
 * The app, as far as `svckit validate` needs one: it answers every call an extension makes
 * the way a fresh install would (no secrets, no sign-ins, no working hours), prints what the
 * extension asked for (notify, openURL, logs, ends), and passes each emitted blip through the
 * same processing the runtime applies, printing the payload, its cuts, or why it was dropped.
 */
import { processBlipInput } from "@svc/api";
import type { ForwardedOp, HostCalls } from "@svc/sandbox";
import type { Output } from "../command.js";
import { formatJson } from "../format-json.js";

/** A blip as the app would receive it, or why it would not. */
export type EmittedBlip =
  | { blipId: string; ok: true; payload: unknown; truncated: string[] }
  | { blipId: string; ok: false; error: string };

/**
 * @example
 * const host = new MockHost("com.example.x", ctx.out);
 * // pass `host` as the sandbox's HostCalls; afterwards read host.emitted and host.problems
 */
export class MockHost implements HostCalls {
  readonly emitted: EmittedBlip[] = [];
  /** Lines that make `validate` fail: dropped payloads, bad calls. */
  readonly problems: string[] = [];
  private readonly seqs = new Map<string, number>();
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly extensionId: string,
    private readonly out: Output,
  ) {}

  async forward(op: ForwardedOp, args: unknown): Promise<unknown> {
    const fields = (args !== null && typeof args === "object" ? args : {}) as Record<string, unknown>;
    switch (op) {
      case "emit":
        // The sandbox forwards `ctx.emit(blip)` as `{blip}`.
        this.emit(fields.blip);
        return null;
      case "end":
        this.out.info(`end ${this.blipId(fields.key)}${describeFields(fields, ["state", "dismissAfter"])}`);
        return null;
      case "remove":
        this.out.info(`remove ${this.blipId(fields.key)}`);
        return null;
      case "respond":
        this.out.info(`respond ${String(fields.replyId)} (${String(fields.status ?? 200)}): ${JSON.stringify(fields.body)}`);
        return null;
      case "log":
        this.out.info(`log [${String(fields.level)}] ${String(fields.message)}`);
        return null;
      case "notify":
        this.out.info(`notify: ${String(fields.title)}${fields.body === undefined ? "" : ` — ${String(fields.body)}`}`);
        return {};
      case "openURL":
        this.out.info(`openURL: ${String(fields.url)}`);
        return {};
      case "secrets.get":
        return { value: this.secrets.get(String(fields.name)) ?? null };
      case "secrets.set":
        this.secrets.set(String(fields.name), String(fields.value));
        return {};
      case "secrets.delete":
        this.secrets.delete(String(fields.name));
        return {};
      case "preferences.set":
        this.out.info(`setPreference ${String(fields.name)} = ${JSON.stringify(fields.value)}`);
        return {};
      case "oauth.connect":
        this.out.info(`oauth.connect${fields.provider === undefined ? "" : ` ${String(fields.provider)}`}: the app would open the sign-in page`);
        return {};
      case "oauth.connections":
        return { connections: [] };
      case "oauth.token":
        return { token: null };
      case "oauth.describe":
      case "oauth.invalidate":
      case "oauth.disconnect":
        throw new Error(`ctx.oauth: there is no connection "${String(fields.connection ?? "")}" (svckit validate signs nobody in)`);
      case "workingHours":
        return null;
      default:
        throw new Error(`unknown operation "${String(op)}"`);
    }
  }

  private blipId(key: unknown): string {
    return `${this.extensionId}/${typeof key === "string" ? key : "?"}`;
  }

  private emit(blip: unknown): void {
    const blipId = this.blipId((blip as { key?: unknown } | null)?.key);
    const seq = (this.seqs.get(blipId) ?? 0) + 1;
    const processed = processBlipInput(blip, { extensionId: this.extensionId, seq });
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
    for (const line of formatJson(processed.payload).split("\n")) this.out.info(`  ${line}`);
    if (processed.truncated.length > 0) this.out.info(`  cut to the limits: ${processed.truncated.join(", ")}`);
  }
}

function describeFields(fields: Record<string, unknown>, names: string[]): string {
  const present = names.filter((name) => fields[name] !== undefined).map((name) => `${name} ${JSON.stringify(fields[name])}`);
  return present.length > 0 ? ` (${present.join(", ")})` : "";
}
