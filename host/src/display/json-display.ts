/**
 * `SVC_HOST_OUTPUT=json`: every host event as one JSON line on stdout, for scripts and tests.
 * Written with `jsonForDisplay`, so a bidi or C1 character in a stranger's string is a `\uXXXX`
 * escape even when the line lands on a terminal.
 */
import { jsonForDisplay } from "@svc/api";
import type { HostEvent } from "../events/index.js";
import type { Display } from "./display.js";

/**
 * @example
 * new JsonDisplay((text) => process.stdout.write(text)).show({ type: "paused", at: 0 }); // {"type":"paused","at":0}
 */
export class JsonDisplay implements Display {
  constructor(private readonly write: (text: string) => void) {}

  show(event: HostEvent): void {
    this.write(`${jsonForDisplay(event)}\n`);
  }

  blips(): void {}

  dispose(): void {}
}
