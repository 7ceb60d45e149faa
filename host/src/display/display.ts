/** What the terminal display is to the host: one subscriber of the event bus. */
import type { BlipView, HostEvent } from "../events/index.js";

/** Where host events go. */
export interface Display {
  show(event: HostEvent): void;
  /** The current blips changed (the live display redraws from this list). */
  blips(blips: readonly BlipView[]): void;
  close(): void;
}
