/**
 * The blip store: every live blip by id with its source, fed by the runtime's notifications
 * (`applyUpdate`, `applyEnd`, `applyRemove`) and by the HTTP server's pushes; out-of-order seqs
 * refused; persisted in `<support>/blips.json`; change events for the display.
 *
 * @example
 * const store = await BlipStore.open(support.blipsFile);
 * const stop = store.onChange((change) => redraw(change));
 */
export { BlipStore, type BlipStoreOptions } from "./blip-store.js";
export type {
  BlipChange,
  BlipChangeListener,
  BlipEnding,
  BlipSource,
  PushedPayload,
  PushResult,
  StoreLog,
  StoredBlip,
} from "./types.js";
export { WEBHOOK_PREFIX, idCandidates, pushedBlipId, slugFromTitle } from "./blip-id.js";
