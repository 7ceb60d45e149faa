/** The terminal display: a live panel on a TTY, one line per change otherwise, JSON on request. */
import type { Display } from "./display.js";
import type { LogLevel } from "./describe-event.js";
import { JsonDisplay } from "./json-display.js";
import { LineDisplay } from "./line-display.js";
import { LiveDisplay } from "./live-display.js";

export type { Display } from "./display.js";
export { displaySubscriber } from "./subscriber.js";
export { formatBlip, notifyLine, speakerFrame, summarizeLayout } from "./format-blip.js";
export { formatValue, shortDuration, clockTime } from "./format-value.js";
export { describeEvent, type AppLogLevel, type LogLevel } from "./describe-event.js";
export { JsonDisplay, LineDisplay, LiveDisplay };

export type DisplayMode = "auto" | "live" | "lines" | "json";

/**
 * The display for an output stream: `auto` is `live` on a terminal, `lines` otherwise.
 *
 * @example
 * const display = createDisplay("auto", process.stdout);
 */
export function createDisplay(
  mode: DisplayMode,
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  logLevel: LogLevel = "info",
): Display {
  const write = (text: string) => void stream.write(text);
  const chosen = mode === "auto" ? (stream.isTTY ? "live" : "lines") : mode;
  if (chosen === "json") return new JsonDisplay(write);
  if (chosen === "lines") return new LineDisplay({ write, logLevel });
  return new LiveDisplay({
    terminal: {
      write,
      get columns() {
        return stream.columns;
      },
    },
    logLevel,
  });
}
