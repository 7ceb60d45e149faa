/**
 * SPEC.md `POST /v1/blips` rules, before anything is stored: one payload or an array; an id
 * without `/` gets `webhook/`; a missing id comes from the title; `v` and `emittedAt` filled;
 * every payload validated by the SDK. The first invalid one rejects the whole request with
 * SPEC's message `invalid payload at [<index>]: "<field path>" should be a <type>`.
 */
import { PAYLOAD_VERSION, payloadErrorAt, processPayload, type BlipPayload } from "@svc/api";
import { WEBHOOK_PREFIX, pushedBlipId, slugFromTitle } from "../store/blip-id.js";
import type { PushedPayload, StoredBlip } from "../store/types.js";

export type PreparedPush = { ok: true; items: PushedPayload[] } | { ok: false; error: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The id the payload will have, or the complaint about its title. */
function idFor(raw: Record<string, unknown>): { id: unknown } | { error: string } {
  if (raw.id !== undefined) return { id: typeof raw.id === "string" ? pushedBlipId(raw.id) : raw.id };
  if (typeof raw.title !== "string") return { error: '"title" should be a string' };
  if (raw.title === "") return { error: '"title" should not be empty' };
  const slug = slugFromTitle(raw.title);
  if (!slug)
    return {
      error: `"id" should be given: the title ${JSON.stringify(raw.title)} has no letter or digit to make one from`,
    };
  return { id: `${WEBHOOK_PREFIX}${slug}` };
}

/** One payload, stamped (a placeholder seq when the client left it out) and validated. */
function prepareOne(raw: unknown, now: string): { item: PushedPayload } | { error: string } {
  if (!isObject(raw)) return { error: "payload should be an object" };
  const id = idFor(raw);
  if ("error" in id) return id;
  const stampSeq = raw.seq === undefined;
  const stamped = {
    ...raw,
    id: id.id,
    v: raw.v ?? PAYLOAD_VERSION,
    emittedAt: raw.emittedAt ?? now,
    // The store gives the real seq when it stores the batch; validation needs a number now.
    seq: stampSeq ? 1 : raw.seq,
  };
  const result = processPayload(stamped);
  if (!result.ok) return { error: result.error };
  return { item: { payload: result.payload as BlipPayload, stampSeq } };
}

/**
 * Checks a whole request body. `existing` looks up a live blip, so an extension's blip cannot
 * be overwritten by a push (its seqs belong to the runtime). `isExtension` says whether an id
 * is a known extension's: a pushed id whose first part is one (`dev.svc.focus/fake`) is refused,
 * so a push can never pose as an extension's blip, live or not.
 *
 * @example
 * const prepared = preparePush(req.body, (id) => store.get(id), undefined, (id) => catalog.has(id));
 * if (!prepared.ok) return sendError(res, 400, prepared.error);
 * const results = store.push(prepared.items);
 */
export function preparePush(
  body: unknown,
  existing: (id: string) => StoredBlip | undefined,
  now = new Date().toISOString(),
  isExtension: (id: string) => boolean = () => false,
): PreparedPush {
  const payloads = Array.isArray(body) ? body : [body];
  if (payloads.length === 0)
    return { ok: false, error: "the body is an empty array: send one payload or an array of payloads" };
  const items: PushedPayload[] = [];
  for (const [index, raw] of payloads.entries()) {
    const prepared = prepareOne(raw, now);
    if ("error" in prepared) return { ok: false, error: payloadErrorAt(index, prepared.error) };
    const { id } = prepared.item.payload;
    const namespace = id.split("/")[0];
    if (id.includes("/") && isExtension(namespace)) {
      return {
        ok: false,
        error: payloadErrorAt(
          index,
          `"id" ${id} is in the namespace of the extension ${namespace}: pushed blips cannot take an extension's namespace; use an id without "/" (it goes under webhook/) or another prefix`,
        ),
      };
    }
    const owner = existing(id)?.source;
    if (owner?.kind === "extension") {
      return {
        ok: false,
        error: payloadErrorAt(
          index,
          `"id" ${id} is a blip of ${owner.extensionId}: give the pushed blip an id of its own`,
        ),
      };
    }
    items.push(prepared.item);
  }
  return { ok: true, items };
}
