/**
 * Who sent a blip or a line, named from the extensions Settings lists (their manifests' titles,
 * from the host's catalog) by `@svc/api`'s one rule, never from the blip or the line itself.
 */
import { speakerOf, UNKNOWN_SPEAKER, type Speaker } from "@svc/api";
import type { UiBlip, UiExtension } from "../wire.js";

export type { Speaker };

/** The sender of a line that names its extension (notify, openURL). */
export function lineSpeaker(extensionId: string | undefined, extensions: readonly UiExtension[]): Speaker {
  return extensionId === undefined ? { name: UNKNOWN_SPEAKER } : speakerOf(extensionId, extensions);
}

/** The sender of a blip: its extension, or "pushed" for a blip pushed over HTTP. */
export function blipSpeaker(blip: UiBlip, extensions: readonly UiExtension[]): Speaker {
  return blip.source === "push" ? speakerOf(undefined, extensions) : lineSpeaker(blip.extensionId, extensions);
}
