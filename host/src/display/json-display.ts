/**
 * `SVC_HOST_OUTPUT=json`: every host event as one JSON line on stdout, for scripts and tests.
 */
import type { Display, HostEvent } from "./events.js";

/**
 * @example
 * new JsonDisplay((text) => process.stdout.write(text)).show({ type: "paused", at: 0 }); // {"type":"paused","at":0}
 */
export class JsonDisplay implements Display {
  constructor(private readonly write: (text: string) => void) {}

  show(event: HostEvent): void {
    this.write(`${JSON.stringify(event)}\n`);
  }

  blips(): void {}

  close(): void {}
}
