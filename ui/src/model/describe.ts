/**
 * What a screen reader says for a blip: its title, its state, its main figure and who sent it,
 * e.g. "Deploy api, running, 40 percent, from Deploys". Pure: the locale and the moment are given.
 */
import { speakerText, type Speaker } from "@svc/api";
import { formatDuration, formatValue } from "../format/values.js";
import { CAPS, shown } from "../format/text.js";
import type { UiBlip } from "../wire.js";
import { fullestMeter, progressFinished } from "./ears.js";

const STATE_WORDS: Record<string, string> = {
  idle: "idle",
  running: "running",
  waiting: "waiting",
  success: "succeeded",
  warning: "warning",
  failure: "failed",
  cancelled: "cancelled",
};

/** The state in words (unknown states are shown as inert text). */
export function stateWords(state: unknown): string | undefined {
  if (typeof state !== "string") return undefined;
  return Object.hasOwn(STATE_WORDS, state) ? STATE_WORDS[state] : shown(state, CAPS.label);
}

function mainFigure(blip: UiBlip, locale: string, now: number): string | undefined {
  const data = (blip.data ?? {}) as Record<string, unknown>;
  switch (blip.layout) {
    case "progress":
      // A finished progress is its state ("succeeded"), not the percent it stopped at.
      return typeof data.fraction === "number" && !progressFinished(blip)
        ? `${Math.round(data.fraction * 100)} percent`
        : undefined;
    case "stat":
      return formatValue(data.value, locale, now) || undefined;
    case "countdown": {
      const end = Date.parse(String(data.endsAt));
      return Number.isNaN(end) ? undefined : end > now ? `${formatDuration(end - now, locale)} left` : "time is up";
    }
    case "score": {
      const home = data.home as { name?: unknown; score?: unknown } | undefined;
      const away = data.away as { name?: unknown; score?: unknown } | undefined;
      return home && away
        ? `${shown(home.name, CAPS.label)} ${String(home.score)}, ${shown(away.name, CAPS.label)} ${String(away.score)}`
        : undefined;
    }
    case "list": {
      const items = Array.isArray(data.items) ? data.items.length : 0;
      const total = typeof data.total === "number" ? data.total : items;
      return `${total} ${total === 1 ? "item" : "items"}`;
    }
    case "meter": {
      // The fullest meter, as the ears show it: its own label with its own figure.
      const fullest = fullestMeter(data);
      return fullest ? `${shown(fullest.label, CAPS.label)} ${Math.round(fullest.fraction * 100)} percent` : undefined;
    }
    default:
      return undefined;
  }
}

export interface BlipFlags {
  stale: boolean;
}

/** Whether the blip's source went quiet (`staleAfter` passed). */
export function isStale(blip: UiBlip, now: number): boolean {
  if (blip.stale === true) return true; // went quiet while svc was asleep, until its next update
  if (typeof blip.staleAfter !== "string") return false;
  const at = Date.parse(blip.staleAfter);
  return !Number.isNaN(at) && now > at;
}

export function describeBlip(blip: UiBlip, locale: string, now: number, from?: Speaker): string {
  const parts = [shown(blip.title, CAPS.title), stateWords(blip.state), mainFigure(blip, locale, now)];
  if (blip.ended) parts.push("ended");
  else if (isStale(blip, now)) parts.push("not updated lately");
  if (from) parts.push(`from ${speakerText(from)}`);
  return parts.filter((part): part is string => Boolean(part)).join(", ");
}
