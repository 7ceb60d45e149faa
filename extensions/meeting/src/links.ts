/**
 * The meeting link in an event: the first Google Meet, Zoom or Teams address in its URL,
 * location, description or the X- properties calendars put them in. Only https addresses on
 * those services' own hosts count, so a Join button never opens some other page an invitation
 * chose.
 */
import type { IcsEvent } from "./ics.js";

const SERVICES: { name: string; host: RegExp }[] = [
  { name: "Google Meet", host: /^meet\.google\.com$/ },
  { name: "Zoom", host: /^(?:[a-z0-9-]+\.)?zoom\.us$/ },
  { name: "Teams", host: /^teams\.(?:microsoft|live)\.com$/ },
];

export interface JoinLink {
  url: string;
  service: string;
}

/** Addresses in free text, without the punctuation that ends a sentence or wraps a link. */
function addresses(text: string): string[] {
  return (text.match(/https:\/\/[^\s<>"'\\]+/g) ?? []).map((a) => a.replace(/[.,;:!?)\]>]+$/, ""));
}

export function joinLink(event: Pick<IcsEvent, "url" | "location" | "description" | "extra">): JoinLink | undefined {
  for (const text of [event.url, event.location, ...event.extra, event.description]) {
    for (const address of addresses(text)) {
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        continue;
      }
      const service = SERVICES.find((s) => s.host.test(url.hostname));
      if (service && url.protocol === "https:" && !url.username && !url.password) {
        return { url: url.href, service: service.name };
      }
    }
  }
  return undefined;
}
