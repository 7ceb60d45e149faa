/**
 * The order of the panel: extension blips first, in the order they first appeared (a blip that
 * updates keeps its place, so nothing jumps under the pointer), then pushed blips at the end.
 * Ended blips stay where they were until they are dismissed.
 */
export interface Orderable {
  id: string;
  source: "extension" | "push";
}

/** `arrival`: blip id → the number it got when first seen. */
export function orderBlips<T extends Orderable>(blips: Iterable<T>, arrival: ReadonlyMap<string, number>): T[] {
  const rank = (blip: T) => arrival.get(blip.id) ?? Number.MAX_SAFE_INTEGER;
  return [...blips].sort((a, b) => {
    if (a.source !== b.source) return a.source === "push" ? 1 : -1;
    return rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
}
