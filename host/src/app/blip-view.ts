/**
 * The one view of a stored blip that every display draws: made once per change and carried by
 * the bus's `blip` event (the terminal panel draws it; the page's feed sends it on, less `from`,
 * which the page finds itself in the extension list).
 */
import type { Speaker } from "@svc/api";
import type { BlipView } from "../events/index.js";
import type { StoredBlip } from "../store/index.js";

/**
 * @example
 * blipView(store.get("com.example.ci/build")!, speaker) // {…payload, id, seq, ended: false, source: "extension", extensionId, from}
 */
export function blipView(blip: StoredBlip, speaker: (source: StoredBlip["source"]) => Speaker): BlipView {
  return {
    ...blip.payload,
    id: blip.id,
    seq: blip.seq,
    ended: blip.ended !== undefined,
    ...(blip.stale ? { stale: true } : {}),
    source: blip.source.kind === "webhook" ? "push" : "extension",
    ...(blip.source.kind === "extension" ? { extensionId: blip.source.extensionId } : {}),
    from: speaker(blip.source),
  };
}
