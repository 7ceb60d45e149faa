// Blips of a chosen JSON size, for the payload benches.

/**
 * A `list` builder output whose JSON is `bytes` long (padding spread over five item subtitles).
 * The runtime adds about 110 bytes when it stamps `id`, `v`, `seq` and `emittedAt`.
 *
 * @example JSON.stringify(blipOfSize(4000)).length // 4000
 */
export function blipOfSize(bytes, key = "bench") {
  const items = Array.from({ length: 5 }, (_, i) => ({ id: `i${i}`, title: `Item ${i}`, subtitle: "" }));
  const blip = { key, title: "Bench", layout: "list", data: { items } };
  const room = bytes - JSON.stringify(blip).length;
  if (room < 0) throw new RangeError(`a blip cannot be as small as ${bytes} bytes`);
  items.forEach((item, i) => (item.subtitle = "x".repeat(Math.floor(room / 5) + (i < room % 5 ? 1 : 0))));
  return blip;
}
