/** What the terminal display is to the host: one subscriber of the event bus. */
import type { Disposable } from "@svc/api";
import type { BlipView, HostEvent } from "../events/index.js";

/** Where host events go. */
export interface Display extends Disposable {
  show(event: HostEvent): void;
  /** The current blips changed (the live display redraws from this list). */
  blips(blips: readonly BlipView[]): void;
}
