/**
 * Payload processing shared by the runtime, the host and svckit (SPEC.md runtime processing
 * rules 1–3): validate, cut to the limits, then drop anything still over 4 KB.
 */
import type { z } from "zod";
import { LIMITS, PAYLOAD_VERSION } from "../schemas/limits.js";
import { blipInputSchema, blipPayloadSchema, type BlipInput, type BlipPayload } from "../schemas/payload.js";
import { jsonByteLength } from "../schemas/text.js";
import { formatIssue, formatIssues, safeParse } from "./issues.js";
import { truncatePayload, type TruncatedPaths } from "./truncate-payload.js";

/** The id of the Sign in action (`CONNECT_ACTION` in kit/connection.ts, which uses this one). */
export const SIGN_IN_ACTION_ID = "svc.connect";
/** A signed-out `connectionBlip`'s label, pointing at its Sign in button. */
export const SIGN_IN_LABEL = "Sign in to continue";
/** That label once the button is left out (no sign-in in the manifest): what the person can still check. */
export const NO_SIGN_IN_LABEL = "Check the extension's settings";

export type ProcessedPayload =
  | { ok: true; payload: BlipPayload; truncated: TruncatedPaths }
  /** `error`: the first problem, e.g. `"data.items.2.title" should be a string`; `errors`: all of them. */
  | { ok: false; error: string; errors: string[] };

function failure(issues: readonly z.core.$ZodIssue[], subject: string): { ok: false; error: string; errors: string[] } {
  const errors = formatIssues(issues, subject);
  return { ok: false, error: errors[0] ?? `${subject} is not valid`, errors };
}

/**
 * Validates a complete payload (stamped `id`, `v`, `seq`, `emittedAt`), cuts it to SPEC.md's
 * limits, and refuses it when `JSON.stringify` of the result is over 4096 bytes of UTF-8.
 * Never throws.
 *
 * @example
 * const r = processPayload(body[i]);
 * if (!r.ok) return reply(400, { error: payloadErrorAt(i, r.error) });
 */
export function processPayload(input: unknown): ProcessedPayload {
  const parsed = safeParse(blipPayloadSchema, input);
  if (!parsed.success) return failure(parsed.error.issues, "payload");
  const { payload, truncated } = truncatePayload(parsed.data);
  const bytes = jsonByteLength(payload);
  if (bytes > LIMITS.payloadBytes) {
    const error = `payload is ${bytes} bytes after truncation, over the ${LIMITS.payloadBytes}-byte limit`;
    return { ok: false, error, errors: [error] };
  }
  return { ok: true, payload, truncated };
}

/** What the runtime stamps on a builder's output. */
export interface BlipStamp {
  extensionId: string;
  seq: number;
  /** ISO 8601; now when left out. */
  emittedAt?: string;
  /**
   * `false` when the extension's manifest has no sign-in (`oauth`): a Sign in action
   * (`svc.connect`, as `connectionBlip` adds to a signed-out blip) is left out, as it could only fail.
   */
  signIn?: boolean;
}

/**
 * Validates what an extension emitted (a builder's output, with `key`), stamps it into a full
 * payload (`id` = `<extensionId>/<key>`, `v`, `seq`, `emittedAt`) and processes it like
 * {@link processPayload}. Never throws.
 *
 * @example
 * processBlipInput({ key: "web", title: "Web", layout: "stat", data: { value: 3 } },
 *   { extensionId: "com.example.x", seq: 1 }).payload.id // "com.example.x/web"
 */
export function processBlipInput(input: unknown, stamp: BlipStamp): ProcessedPayload {
  const parsed = safeParse(blipInputSchema, input);
  if (!parsed.success) return failure(parsed.error.issues, "blip");
  const blip =
    stamp.signIn === false && parsed.data.actions?.some((action) => action.id === SIGN_IN_ACTION_ID)
      ? withoutSignIn(parsed.data)
      : parsed.data;
  return processPayload(stampBlipInput(blip, stamp));
}

/** A blip without its Sign in button, and without the label that tells the person to press it. */
function withoutSignIn(blip: BlipInput): BlipInput {
  const actions = blip.actions?.filter((action) => action.id !== SIGN_IN_ACTION_ID);
  if (blip.layout === "stat" && blip.data.label === SIGN_IN_LABEL)
    return { ...blip, actions, data: { ...blip.data, label: NO_SIGN_IN_LABEL } };
  return { ...blip, actions } as BlipInput;
}

/**
 * Builds the full payload for a valid builder output, without validating it.
 *
 * @example
 * stampBlipInput(input, { extensionId: "com.example.x", seq: 4 })
 */
export function stampBlipInput(input: BlipInput, stamp: BlipStamp): BlipPayload {
  const { key, ...rest } = input;
  return {
    ...rest,
    id: `${stamp.extensionId}/${key}`,
    v: PAYLOAD_VERSION,
    seq: stamp.seq,
    emittedAt: stamp.emittedAt ?? new Date().toISOString(),
  } as BlipPayload;
}

/**
 * The HTTP 400 message for the payload at `index` of a `POST /v1/blips` body (SPEC.md, Errors).
 *
 * @example
 * payloadErrorAt(2, '"data.items.2.title" should be a string')
 * // 'invalid payload at [2]: "data.items.2.title" should be a string'
 */
export function payloadErrorAt(index: number, error: string): string {
  return `invalid payload at [${index}]: ${error}`;
}

/**
 * One zod issue of a payload as SPEC.md's 400 message, for callers that validate themselves.
 *
 * @example
 * formatPayloadIssue(0, issue) // 'invalid payload at [0]: "title" should be a string'
 */
export function formatPayloadIssue(index: number, issue: z.core.$ZodIssue): string {
  return payloadErrorAt(index, formatIssue(issue, "payload"));
}
