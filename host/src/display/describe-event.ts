/**
 * Host events as lines for a person. `undefined` means the event is not worth a line of its own
 * (a run that went fine, a debug log below the chosen level).
 */
import type { HostEvent } from "./events.js";
import { formatBlip, notifyLine, signInCodeLines } from "./format-blip.js";

import type { LogLevel } from "@svc/api";

export type { LogLevel };
/** The levels of the app's own lines (it writes no debug lines). */
export type AppLogLevel = Exclude<LogLevel, "debug">;
const LEVELS: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

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
  switch (event.type) {
    case "started":
      return [
        `svc-host: support folder ${event.supportFolder}${event.port ? `, HTTP on 127.0.0.1:${event.port}` : ""}${event.clock === "manual" ? " (manual clock)" : ""}`,
      ];
    case "extensions":
      return [
        `extensions: ${event.active.length} active${event.broken.length ? `, ${event.broken.length} broken` : ""}${event.overridden.length ? `, ${event.overridden.length} overridden` : ""}`,
        ...event.active.map(
          (ext) =>
            `  ${ext.id} (${ext.source})${ext.tools.length ? ` tools: ${ext.tools.join(", ")}` : ""}${ext.error ? ` — ${ext.error}` : ""}`,
        ),
        ...event.broken.map((ext) => `  ✘ ${ext.id} (${ext.source}, ${ext.folder}): ${ext.error}`),
        ...event.overridden.map((ext) => `  ${ext.id} (bundled) overridden by a user extension`),
      ];
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
      return [`${event.extensionId ?? "?"} asked to open ${event.url}`];
    case "status":
      return event.status === "crashed"
        ? [`✘ ${event.extensionId} crashed${event.error ? `: ${event.error}` : ""}`]
        : undefined;
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
    case "watching":
      return undefined;
    case "control":
      return event.ok ? undefined : [`✘ control: ${event.command}: ${event.error ?? ""}`];
    case "stopping":
      return ["svc-host: stopping"];
  }
}
