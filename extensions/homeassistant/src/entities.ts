/**
 * Home Assistant's state objects (`GET /api/states/<entity_id>`: `entity_id`, `state`,
 * `attributes` with `friendly_name` and `unit_of_measurement`, `last_changed`) as list rows.
 */
import type { ListItem } from "@svc/api";

export interface HaState {
  entity_id: string;
  state: string;
  attributes?: { friendly_name?: unknown; unit_of_measurement?: unknown; device_class?: unknown };
  last_changed?: string;
}

/** An entity id as Home Assistant makes them: `<domain>.<object id>`, lower case. */
export const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;

/** Domains whose `toggle` service flips them (Home Assistant's own toggle entities). */
const TOGGLES = new Set([
  "light",
  "switch",
  "fan",
  "input_boolean",
  "automation",
  "cover",
  "media_player",
  "humidifier",
  "siren",
  "remote",
  "group",
]);

const ICONS: Record<string, string> = {
  light: "lightbulb",
  switch: "power",
  input_boolean: "power",
  fan: "wind",
  lock: "lock",
  cover: "rectangle.split.3x1",
  climate: "thermometer",
  media_player: "tv",
  person: "person",
  device_tracker: "location",
  automation: "gearshape.2",
  sun: "sun.max",
  weather: "cloud.sun",
  binary_sensor: "circle.circle",
};

export const TOGGLE_ACTION = { id: "toggle", title: "Toggle", icon: "power" } as const;

export const domainOf = (entityId: string): string => entityId.slice(0, entityId.indexOf("."));

/** The entity ids typed in the option, each once, in order; other lines are returned apart. */
export function chosenEntities(option: unknown): { ids: string[]; invalid: string[] } {
  const lines =
    typeof option === "string"
      ? option
          .split(/[\n,]/)
          .map((l) => l.trim())
          .filter(Boolean)
      : [];
  const ids = [...new Set(lines.filter((l) => ENTITY_ID.test(l)))];
  return { ids, invalid: lines.filter((l) => !ENTITY_ID.test(l)) };
}

export function canToggle(entityId: string): boolean {
  return TOGGLES.has(domainOf(entityId));
}

function iconOf(state: HaState): string {
  const domain = domainOf(state.entity_id);
  if (domain === "sensor") {
    const unit = String(state.attributes?.unit_of_measurement ?? "");
    if (state.attributes?.device_class === "temperature" || /°[CF]$/.test(unit)) return "thermometer";
    if (state.attributes?.device_class === "humidity") return "humidity";
    if (state.attributes?.device_class === "battery") return "battery.50";
    return "gauge";
  }
  return ICONS[domain] ?? "house";
}

/** Home Assistant's words for an entity it cannot read now. */
const UNREADABLE = new Set(["unavailable", "unknown"]);

/**
 * @example
 * entityItem({ entity_id: "light.kitchen", state: "on", attributes: { friendly_name: "Kitchen" } })
 * // { id: "light.kitchen", title: "Kitchen", subtitle: "light.kitchen", icon: "lightbulb", value: "On", actions: [TOGGLE_ACTION] }
 */
export function entityItem(state: HaState): ListItem {
  const name = typeof state.attributes?.friendly_name === "string" ? state.attributes.friendly_name : state.entity_id;
  const unit = typeof state.attributes?.unit_of_measurement === "string" ? state.attributes.unit_of_measurement : "";
  const shown =
    state.state === "on" || state.state === "off" ? state.state[0].toUpperCase() + state.state.slice(1) : state.state;
  return {
    id: state.entity_id,
    title: name,
    subtitle: state.entity_id,
    icon: iconOf(state),
    // Only what needs a look gets a state: "on" drawn as "succeeded" would read wrong.
    ...(UNREADABLE.has(state.state) ? { state: "warning" as const } : {}),
    value: unit && !UNREADABLE.has(state.state) ? `${shown} ${unit}` : shown,
    ...(canToggle(state.entity_id) && !UNREADABLE.has(state.state) ? { actions: [TOGGLE_ACTION] } : {}),
  };
}
