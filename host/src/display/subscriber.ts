/** The terminal display's side of the event bus. */
import type { BlipView, HostEvent } from "../events/index.js";
import type { Display } from "./display.js";

/**
 * The terminal display as a subscriber of the bus: each event shown, and the panel's blips kept
 * from the `blip` events' views (in the store's order: arrival, an update keeps its place), so
 * the display never reads the store.
 *
 * @example
 * bus.subscribe(displaySubscriber(createDisplay("auto", process.stdout)));
 */
export function displaySubscriber(display: Display): (event: HostEvent) => void {
  const blips = new Map<string, BlipView>();
  return (event) => {
    display.show(event);
    if (event.type === "blips.restored") for (const blip of event.blips) blips.set(blip.id, blip);
    else if (event.type === "blip" && event.change === "remove") blips.delete(event.id);
    else if (event.type === "blip" && event.blip) blips.set(event.id, event.blip);
    else if (event.type !== "started") return;
    display.blips([...blips.values()]);
  };
}
