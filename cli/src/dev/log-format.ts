/**
 * How `svckit dev` shows one event of the app's log stream to a person: a time, a short tag
 * and the message; a denial on two lines with its manifest fix; a status with heap and CPU.
 * Colours only when the output is a terminal.
 */

import { escapeForDisplay, type LogLevel } from "@svc/api";

/** One line of `GET /v1/logs` as the host sends it (host/README.md "Log stream"). */
export type StreamEvent =
  | { type: "log"; at: string; extensionId?: string; level: LogLevel; message: string }
  | {
      type: "status";
      at: string;
      extensionId: string;
      status: string;
      heapUsed?: number;
      cpuMs?: number;
      error?: string;
    }
  | { type: "heartbeat"; at: string };

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, gray: 90, bold: 1 } as const;
type Colour = keyof typeof CODES;

export type Paint = (colour: Colour, text: string) => string;

/** A painter that colours (ANSI) or leaves text alone. */
export function painter(colour: boolean): Paint {
  return colour ? (name, text) => `\x1b[${CODES[name]}m${text}\x1b[0m` : (_name, text) => text;
}

/**
 * Bytes for a person: `812 B`, `14.2 KB`, `1.2 MB`.
 *
 * @example
 * formatBytes(1_258_291) // "1.2 MB"
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `HH:MM:SS` in local time; the raw text when it is not a date. */
function clock(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toTimeString().slice(0, 8);
}

const LEVEL_COLOURS: Record<string, Colour> = { debug: "gray", info: "cyan", warn: "yellow", error: "red" };
const FIX_SEPARATOR = "; to allow it, ";

/** The tag and colour of a log line: what kind of diagnostic it is, else its level. */
function logTag(level: string, message: string): { tag: string; colour: Colour } {
  if (message.startsWith("denied: ")) return { tag: "denied", colour: "red" };
  if (message.startsWith("dropped ")) return { tag: "dropped", colour: "red" };
  if (message.startsWith("interrupted: ")) return { tag: "slice", colour: "yellow" };
  if (message.startsWith("hit the memory limit")) return { tag: "memory", colour: "red" };
  return { tag: level, colour: LEVEL_COLOURS[level] ?? "gray" };
}

/**
 * The lines to print for one event; none for a heartbeat.
 *
 * @example
 * formatEvent({ type: "status", at, extensionId: "com.x", status: "idle", heapUsed: 1258291, cpuMs: 35 }, painter(false))
 * // ["09:00:01 status  heap 1.2 MB · cpu 35 ms · idle"]
 * formatEvent({ type: "log", at, level: "warn", message: 'denied: fetch x.io: "x.io" is not in permissions.network; to allow it, add "x.io" to svc.permissions.network in package.json' }, paint)
 * // ['09:00:01 denied  fetch x.io: "x.io" is not in permissions.network',
 * //  '         fix     add "x.io" to svc.permissions.network in package.json']
 */
export function formatEvent(raw: StreamEvent, paint: Paint): string[] {
  if (raw.type === "heartbeat") return [];
  // Every string came from an extension or the stream: made inert before any colour is added.
  // A message keeps its line breaks: each further line is indented below the tag, so it can
  // never pass for a line of its own.
  const event = Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [
      key,
      typeof value === "string" ? escapeForDisplay(value, { multiline: key === "message" }) : value,
    ]),
  ) as Exclude<StreamEvent, { type: "heartbeat" }>;
  const time = paint("gray", clock(event.at));
  const pad = (tag: string) => tag.padEnd(7);
  if (event.type === "status") {
    const parts = [
      ...(event.heapUsed === undefined ? [] : [`heap ${formatBytes(event.heapUsed)}`]),
      ...(event.cpuMs === undefined ? [] : [`cpu ${Math.round(event.cpuMs)} ms`]),
      event.status === "crashed" ? paint("red", "crashed") : event.status,
    ];
    const line = `${time} ${paint("gray", pad("status"))} ${parts.join(" · ")}`;
    return [event.error === undefined ? line : `${line}: ${paint("red", event.error)}`];
  }
  const { tag, colour } = logTag(event.level, event.message);
  // The tag already says it: `denied: fetch …` → `denied  fetch …`, `dropped blip …` → `dropped blip …` once.
  const text =
    tag === "denied"
      ? event.message.slice("denied: ".length)
      : tag === "dropped"
        ? event.message.slice("dropped ".length)
        : event.message;
  const at = text.indexOf(FIX_SEPARATOR);
  if (tag === "denied" && at !== -1) {
    return [
      `${time} ${paint(colour, pad(tag))} ${text.slice(0, at)}`,
      `${" ".repeat(8)} ${paint("green", pad("fix"))} ${paint("bold", text.slice(at + FIX_SEPARATOR.length))}`,
    ];
  }
  const lines = text.split("\n");
  return [
    `${time} ${paint(colour, pad(tag))} ${lines[0]}`,
    ...lines.slice(1).map((line) => `${" ".repeat(16)} ${line}`),
  ];
}
