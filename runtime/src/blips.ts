/**
 * The blip side of `ctx`: `emit`, `end` and `remove` become `blip.update`, `blip.end` and
 * `blip.remove` (SPEC "Runtime processing rules" 1–4).
 *
 * A payload is validated and cut by the SDK's processing at its real size (with the seq it will
 * carry), dropped with an error log when invalid or over 4 KB, and sent only once its seq is on
 * disk. A blip id is always `<extensionId>/<key>`: the guest picks the key, never the prefix.
 */
import { z } from "zod";
import { blipKeySchema, blipStateSchema, processBlipInput, type LogLevel } from "@svc/api";
import type { Connection } from "./connection.js";
import { describeIssues } from "./connection.js";
import { BlipEnd, BlipRemove, BlipUpdate } from "./protocol/index.js";
import type { SeqStore } from "./seq-store.js";

/** Records the seq of every blip updated while it is open (`extension.action`'s `emitted`). */
export type EmitRecorder = Map<string, number>;

const EndArgs = z.object({
  key: blipKeySchema,
  state: blipStateSchema.optional(),
  dismissAfter: z
    .number()
    .nonnegative()
    .max(86_400 * 365)
    .optional(),
});
const RemoveArgs = z.object({ key: blipKeySchema });

/** `ctx.end`'s arguments, checked; throws the error the guest sees. */
export function checkEndArgs(args: unknown): z.output<typeof EndArgs> {
  const parsed = EndArgs.safeParse(args);
  if (!parsed.success) throw new Error(`ctx.end: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** `ctx.remove`'s arguments, checked; throws the error the guest sees. */
export function checkRemoveArgs(args: unknown): z.output<typeof RemoveArgs> {
  const parsed = RemoveArgs.safeParse(args);
  if (!parsed.success) throw new Error(`ctx.remove: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

export interface BlipSideOptions {
  extensionId: string;
  connection: Connection;
  seqs: SeqStore;
  /** Epoch ms for `emittedAt` (the runtime's clock). */
  now(): number;
  log(level: LogLevel, message: string): void;
  /** Whether the manifest has a sign-in (`oauth`); without one a Sign in action is left out. */
  signIn?: () => boolean;
}

/**
 * @example
 * const blips = new BlipSide({ extensionId, connection, seqs, now: Date.now, log });
 * await blips.emit({ key: "web", title: "Web", layout: "stat", data: { value: 3 } });
 */
export class BlipSide {
  private readonly recorders = new Set<EmitRecorder>();

  constructor(private readonly options: BlipSideOptions) {}

  /** Starts recording updates; call the returned function to stop. */
  record(recorder: EmitRecorder): () => void {
    this.recorders.add(recorder);
    return () => this.recorders.delete(recorder);
  }

  /** `ctx.emit(blip)`. Resolves once sent, or once dropped (an invalid payload is not the guest's exception). */
  async emit(blip: unknown): Promise<void> {
    const { extensionId, seqs, connection } = this.options;
    const key = typeof blip === "object" && blip !== null ? (blip as { key?: unknown }).key : undefined;
    const blipId = typeof key === "string" ? `${extensionId}/${key}` : `${extensionId}/?`;
    // Validate with the seq it will really carry, then take that seq in the same synchronous step.
    const emittedAt = new Date(this.options.now()).toISOString();
    const processed = processBlipInput(blip, {
      extensionId,
      seq: seqs.peekNext(blipId),
      emittedAt,
      ...(this.options.signIn ? { signIn: this.options.signIn() } : {}),
    });
    if (!processed.ok) {
      this.options.log("error", `dropped blip ${blipId}: ${processed.error}`);
      return;
    }
    if (processed.truncated.length > 0) {
      this.options.log("debug", `blip ${blipId} cut to the limits: ${processed.truncated.join(", ")}`);
    }
    const seq = await seqs.next(processed.payload.id);
    connection.sendNotification(BlipUpdate, { extensionId, payload: { ...processed.payload, seq } });
    this.noteUpdate(processed.payload.id, seq);
  }

  /** `ctx.end(key, {state?, dismissAfter?})`. */
  async end(args: unknown): Promise<void> {
    const end = checkEndArgs(args);
    const { extensionId, seqs, connection } = this.options;
    const id = `${extensionId}/${end.key}`;
    const seq = await seqs.next(id);
    connection.sendNotification(BlipEnd, {
      extensionId,
      id,
      seq,
      ...(end.state === undefined ? {} : { state: end.state }),
      ...(end.dismissAfter === undefined ? {} : { dismissAfter: end.dismissAfter }),
    });
    this.noteUpdate(id, seq);
  }

  /** `ctx.remove(key)`. */
  remove(args: unknown): void {
    const { key } = checkRemoveArgs(args);
    const { extensionId, connection } = this.options;
    connection.sendNotification(BlipRemove, { extensionId, id: `${extensionId}/${key}` });
  }

  private noteUpdate(id: string, seq: number): void {
    for (const recorder of this.recorders) recorder.set(id, seq);
  }
}
