/**
 * SPEC.md runtime processing rule 1: the cuts applied to a valid payload. Cuts never reject;
 * they keep the first entries, except series, which keep their newest (last) points.
 */
import { LIMITS } from "../schemas/limits.js";
import type { BlipInput, BlipPayload } from "../schemas/payload.js";

/** What was cut, by dotted field path (e.g. `data.items.0.actions`), in payload order. */
export type TruncatedPaths = string[];

/**
 * Applies every cut of SPEC.md's rule 1 to a valid payload (or builder output) and returns a
 * new object with the paths it cut. Quick choices come first, then actions, 4 in all.
 *
 * @example
 * truncatePayload(payload) // { payload: {...actions: first 4}, truncated: ["actions"] }
 */
export function truncatePayload<P extends BlipPayload | BlipInput>(
  input: P,
): { payload: P; truncated: TruncatedPaths } {
  const truncated: TruncatedPaths = [];
  const payload = { ...input };

  const choices = payload.choices ?? [];
  if (choices.length > LIMITS.actionsPerBlip) {
    payload.choices = choices.slice(0, LIMITS.actionsPerBlip);
    truncated.push("choices");
  }
  const roomForActions = LIMITS.actionsPerBlip - Math.min(choices.length, LIMITS.actionsPerBlip);
  if (payload.actions && payload.actions.length > roomForActions) {
    payload.actions = payload.actions.slice(0, roomForActions);
    truncated.push("actions");
  }
  if (payload.facts && payload.facts.length > LIMITS.facts) {
    payload.facts = payload.facts.slice(0, LIMITS.facts);
    truncated.push("facts");
  }
  truncateData(payload, truncated);
  return { payload, truncated };
}

/** The layout-specific cuts, on a shallow copy of `payload.data`. */
function truncateData(payload: BlipPayload | BlipInput, truncated: TruncatedPaths): void {
  switch (payload.layout) {
    case "stat": {
      const series = payload.data.series;
      if (series && series.length > LIMITS.seriesPoints) {
        payload.data = { ...payload.data, series: series.slice(-LIMITS.seriesPoints) };
        truncated.push("data.series");
      }
      return;
    }
    case "progress": {
      const stages = payload.data.stages;
      if (stages && stages.length > LIMITS.progressStages) {
        payload.data = { ...payload.data, stages: stages.slice(0, LIMITS.progressStages) };
        truncated.push("data.stages");
      }
      return;
    }
    case "meter": {
      const meters = payload.data.meters;
      if (meters.length > LIMITS.meters) {
        payload.data = { ...payload.data, meters: meters.slice(0, LIMITS.meters) };
        truncated.push("data.meters");
      }
      return;
    }
    case "list": {
      let items = payload.data.items;
      if (items.length > LIMITS.listItems) {
        items = items.slice(0, LIMITS.listItems);
        truncated.push("data.items");
      }
      items = items.map((item, i) => {
        if (!item.actions || item.actions.length <= LIMITS.actionsPerListItem) return item;
        truncated.push(`data.items.${i}.actions`);
        return { ...item, actions: item.actions.slice(0, LIMITS.actionsPerListItem) };
      });
      payload.data = { ...payload.data, items };
      return;
    }
    default:
      return;
  }
}
