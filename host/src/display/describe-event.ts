/**
 * Host events as lines for a person. `undefined` means the event is not worth a line of its own
 * (a run that went fine, a debug log below the chosen level).
 */
import type { HostEvent } from "../events/index.js";
import { formatBlip, notifyLine, signInCodeLines } from "./format-blip.js";

import { signInPrompt, type LogLevel } from "@svc/api";

export type { LogLevel };
/** The levels of the app's own lines (it writes no debug lines). */
export type AppLogLevel = Exclude<LogLevel, "debug">;
const LEVELS: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** An event's line longer than this is cut on every display: a log message is at most 8 KB already. */
export const MAX_LINE_CHARS = 10_000;

/** True when a log at `level` passes the threshold `min`. */
export function levelPasses(level: LogLevel, min: LogLevel): boolean {
  return LEVELS[level] >= LEVELS[min];
}

/**
 * @example
 * describeEvent({ type: "notify", from: { name: "Focus" }, title: "Focus done", body: "Take a break" }, Date.now(), "info");
 * // ["🔔 [Focus] Focus done — Take a break"]
 */
export function describeEvent(event: HostEvent, now: number, minLevel: LogLevel): string[] | undefined {
  return linesOf(event, now, minLevel)?.flatMap(withFrames);
}

/**
 * An error's stack frames each on a line of their own, indented under it, so a stack reads as
 * one; any other line break stays in the line (each display escapes it), so a stranger's text
 * never starts a line that looks like svc's own.
 *
 * @example
 * withFrames("[error] a.b: update() threw: x\n    at update (src/index.ts:4:5)")
 * // ["[error] a.b: update() threw: x", "    at update (src/index.ts:4:5)"]
 */
function withFrames(line: string): string[] {
  const lines = [""];
  line.split("\n").forEach((part, i) => {
    if (i > 0 && /^\s*at \S/.test(part)) lines.push(`    ${part.trim()}`);
    else lines[lines.length - 1] += i > 0 ? `\n${part}` : part;
  });
  return lines;
}

type ExtensionsEvent = Extract<HostEvent, { type: "extensions" }>;
type Summary = ExtensionsEvent["active"][number];

const activeLine = (ext: Summary) =>
  `  ${ext.id} (${ext.source})${ext.tools.length ? ` tools: ${ext.tools.join(", ")}` : ""}${ext.error ? ` — ${ext.error}` : ""}`;
const brokenLine = (ext: Summary) => `  ✘ ${ext.id} (${ext.source}, ${ext.folder}): ${ext.error}`;
const overriddenLine = (ext: Summary) => `  ${ext.id} (bundled) overridden by a user extension`;

/** Every extension found: the list a display shows once, at start. */
function extensionLines(event: ExtensionsEvent): string[] {
  return [
    `extensions: ${event.active.length} active${event.broken.length ? `, ${event.broken.length} broken` : ""}${event.overridden.length ? `, ${event.overridden.length} overridden` : ""}`,
    ...event.active.map(activeLine),
    ...event.broken.map(brokenLine),
    ...event.overridden.map(overriddenLine),
  ];
}

/**
 * After the first list, only what changed: a save that reloads one extension is its one
 * `reloaded` line, not the whole list again. `undefined` when nothing in the list changed.
 *
 * @example
 * extensionChanges(before, after) // ["  ✘ com.example.ci (user, /x/ci): package.json is not JSON"]
 */
export function extensionChanges(before: ExtensionsEvent, after: ExtensionsEvent): string[] | undefined {
  const linesById = (event: ExtensionsEvent) =>
    new Map([
      ...event.active.map((ext) => [ext.id, activeLine(ext)] as const),
      ...event.broken.map((ext) => [`${ext.id}\0${ext.folder}`, brokenLine(ext)] as const),
      ...event.overridden.map((ext) => [`${ext.id}\0overridden`, overriddenLine(ext)] as const),
    ]);
  const was = linesById(before);
  const now = linesById(after);
  const idOf = (key: string) => key.split("\0")[0]!;
  const stillThere = new Set([...now.keys()].map(idOf));
  const lines = [
    ...[...now].filter(([key, line]) => was.get(key) !== line).map(([, line]) => line),
    ...[...new Set([...was.keys()].map(idOf))].filter((id) => !stillThere.has(id)).map((id) => `  ${id}: gone`),
  ];
  return lines.length ? lines : undefined;
}

function linesOf(event: HostEvent, now: number, minLevel: LogLevel): string[] | undefined {
  switch (event.type) {
    case "started":
      return [
        `svc-host: support folder ${event.supportFolder}${event.port ? `, HTTP on 127.0.0.1:${event.port}` : ""}${event.clock === "manual" ? " (manual clock)" : ""}`,
      ];
    case "extensions":
      return extensionLines(event);
    case "secret-store":
      return event.available
        ? undefined
        : [
            `✘ ${event.error}. Blips work; secrets, password options and sign-ins are refused until then${event.detail ? ` (${event.detail})` : ""}`,
            ...(event.fix ? [`  to give this session one: ${event.fix}`] : []),
          ];
    case "preference":
      return [
        `${event.id}: option "${event.name}" changed ${event.by === "settings" ? "in Settings" : "by the extension"}`,
      ];
    case "extension.loaded":
      if (event.reason === "preferences") return [`${event.id}: reloaded with its new options`];
      return event.reason === "discovered" ? undefined : [`${event.id}: ${event.reason}`];
    case "extension.unloaded":
      return [`${event.id}: unloaded`];
    case "extension.error":
      return [`✘ ${event.id}: ${event.error}`];
    case "extension.tools":
      return undefined;
    case "blips.restored":
      return [
        `${event.blips.length} blip${event.blips.length === 1 ? "" : "s"} kept from last time`,
        ...event.blips.map((blip) => `  ${formatBlip(blip, now)}`),
      ];
    case "blip":
      if (event.change === "remove") return [`- ${event.id} removed`];
      // A known blip's line already carries its state mark and "(ended)".
      if (event.change === "end")
        return [
          `${event.blip ? formatBlip({ ...event.blip, ended: true }, now) : `${event.id} (ended)`}  [${event.id}]`,
        ];
      return event.blip ? [`${formatBlip(event.blip, now)}  [${event.id} #${event.seq ?? "?"}]`] : undefined;
    case "run.start":
      return undefined;
    case "run.end":
      return event.result === "ok"
        ? undefined
        : [
            `✘ ${event.id}: ${event.trigger} run ${event.result === "timeout" ? "timed out" : "failed"}: ${event.error ?? ""}`,
          ];
    case "action":
      return event.error ? [`✘ ${event.blipId}: action ${event.actionId} failed: ${event.error}`] : undefined;
    case "event.sent":
      return event.error ? [`✘ ${event.id}: ${event.event} event not delivered: ${event.error}`] : undefined;
    case "notify":
      return [notifyLine(event)];
    case "sign-in.code":
      return signInCodeLines(event);
    case "openURL":
      // A sign-in says what it is for; the address gets a line of its own, whole, to copy.
      return event.signIn
        ? [`${signInPrompt(event.signIn, event.url)}:`, event.url]
        : [`${event.extensionId ?? "?"} asked to open ${event.url}`];
    case "status":
      return event.status === "crashed"
        ? [`✘ ${event.extensionId} crashed${event.error ? `: ${event.error}` : ""}`]
        : undefined;
    case "denied":
      // Its `warn` log line (the runtime's, from the same record) is what the terminal shows.
      return undefined;
    case "log":
      return levelPasses(event.level, minLevel)
        ? [`[${event.level}] ${event.extensionId ? `${event.extensionId}: ` : ""}${event.message}`]
        : undefined;
    case "runtime":
      return [`runtime ${event.state}${event.detail ? `: ${event.detail}` : ""}`];
    case "paused":
      return ["scheduled runs paused"];
    case "resumed":
      return ["scheduled runs resumed"];
    case "power":
      return [event.onBattery ? "on battery: scheduled waits ×3" : "on mains power: scheduled waits as usual"];
    case "watching":
      return undefined;
    case "control":
      return event.ok ? undefined : [`✘ control: ${event.command}: ${event.error ?? ""}`];
    case "stopping":
      return ["svc-host: stopping"];
  }
}

/**
 * `describeEvent` for a display that shows events one after another: the extension list in
 * full the first time, then only its changes (`extensionChanges`).
 *
 * @example
 * const lines = new EventLines("info");
 * lines.of(event, Date.now()); // string[] | undefined
 */
export class EventLines {
  private shownList: ExtensionsEvent | undefined;

  constructor(private readonly minLevel: LogLevel) {}

  of(event: HostEvent, now: number): string[] | undefined {
    if (event.type !== "extensions") return describeEvent(event, now, this.minLevel);
    const before = this.shownList;
    this.shownList = event;
    return (before ? extensionChanges(before, event) : extensionLines(event))?.flatMap(withFrames);
  }
}
