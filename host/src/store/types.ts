/** The shapes the blip store holds, persists and announces. */
import type { BlipPayload } from "@svc/api";
import type { AppLogLevel } from "../display/index.js";

/** Who wrote a blip: an extension (through the runtime) or a client of the HTTP server. */
export type BlipSource = { kind: "extension"; extensionId: string } | { kind: "webhook" };

/** How a blip was ended (`blip.end`, or `POST /v1/blips/<id>/end`). */
export interface BlipEnding {
  /** ISO 8601 moment the end arrived. */
  at: string;
  /** ISO 8601 moment the blip is removed; absent when it stays until replaced or removed. */
  dismissAt?: string;
}

/** One live blip. */
export interface StoredBlip {
  id: string;
  /** The seq of the last write applied (an update's or an end's). */
  seq: number;
  source: BlipSource;
  /** The last complete payload; an end sets its `state` and `seq`. */
  payload: BlipPayload;
  ended?: BlipEnding;
  /**
   * Its `staleAfter` passed while svc was paused (asleep or locked): shown as stale until its next
   * update, which replaces the whole blip (`BlipStore.markStaleAtWake`).
   */
  stale?: true;
}

/** What changed, for the display. `blip` is the store's own copy: read it, never change it. */
export type BlipChange =
  | { type: "update"; blip: StoredBlip }
  | { type: "end"; blip: StoredBlip }
  | { type: "remove"; id: string; blip: StoredBlip };

export type BlipChangeListener = (change: BlipChange) => void;

/** Diagnostics; the host routes them to its log (`extensionId`: the extension it is about). */
export type StoreLog = (level: AppLogLevel, message: string, extensionId?: string) => void;

/** A pushed payload ready for the store: validated, id final, and whether to stamp `seq`. */
export interface PushedPayload {
  payload: BlipPayload;
  /** True when the client left `seq` out: the store gives the id's next seq. */
  stampSeq: boolean;
}

/** What a push did to one payload. `applied` is false when a newer seq was already stored. */
export interface PushResult {
  id: string;
  seq: number;
  applied: boolean;
}
