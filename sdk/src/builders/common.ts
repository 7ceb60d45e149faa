/**
 * What every blip builder shares: the fields any layout may carry, and putting a payload
 * together without `undefined` holes (what you see is the JSON the app gets).
 */
import type { BlipInputOf, Layout, LayoutDataMap } from "../schemas/index.js";
import { staleAfter } from "./stale.js";
import type { DateInput } from "./instant.js";

/**
 * Fields every layout takes besides its own: `title` (required), `subtitle`, `icon` (a system
 * symbol name), `state`, `url`, `actions`, `choices` (quick choices), `facts`, and
 * `staleAfter` (seconds from now below 1e9, else a moment, see the kit's `staleAfter`).
 */
export type BlipOptions = Omit<BlipInputOf<"stat">, "key" | "layout" | "data" | "staleAfter"> & {
  staleAfter?: DateInput;
};

const COMMON_KEYS = ["title", "subtitle", "icon", "state", "url", "actions", "choices", "facts"] as const;

/** Leaves out keys whose value is undefined, so the result equals its JSON. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value)) if (entry !== undefined) out[name] = entry;
  return out as T;
}

/** One payload of `layout`: the common fields picked out of `options`, then `layout` and `data`. */
export function assemble<L extends Layout>(
  key: string,
  layout: L,
  options: BlipOptions,
  data: LayoutDataMap[L],
): BlipInputOf<L> {
  const blip: Record<string, unknown> = { key };
  for (const name of COMMON_KEYS) if (options[name] !== undefined) blip[name] = options[name];
  if (options.staleAfter !== undefined) blip.staleAfter = staleAfter(options.staleAfter);
  blip.layout = layout;
  blip.data = compact(data);
  return blip as BlipInputOf<L>;
}
