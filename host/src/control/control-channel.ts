/**
 * The control channel (`SVC_HOST_CONTROL=stdin`): commands, one JSON object per line, that do
 * what the desktop shell or a test would: pause and resume (screen sleep and lock), run an
 * extension now, move a manual clock. Each command is answered with a `control` host event.
 *
 * | command | effect |
 * |---|---|
 * | `{"command": "pause"}` | scheduled runs wait |
 * | `{"command": "resume"}` | overdue runs happen once |
 * | `{"command": "run", "id": "<extension id>", "trigger"?: "manual" \| "preferences"}` | runs it now |
 * | `{"command": "action", "blipId": "<ext id>/<key>", "actionId": "<id>", "input"?, "itemId"?}` | presses a blip's button (answered once `onAction` is done) |
 * | `{"command": "set-preference", "id": "<extension id>", "name": "<option>", "value": <value or null>}` | changes an option as in Settings (passwords too; `null` clears), then the extension runs with trigger `preferences` |
 * | `{"command": "advance", "ms": <n>}` | moves the manual clock forward (`SVC_HOST_CLOCK=manual` only) |
 * | `{"command": "stop"}` | stops the host |
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { ManualClock } from "../clock/index.js";
import type { HostEvent } from "../events/index.js";

export interface ControlTarget {
  pause(): void;
  resume(): void;
  runNow(id: string, trigger?: "manual" | "preferences"): boolean;
  action(press: { blipId: string; actionId: string; input?: string; itemId?: string }): Promise<unknown>;
  setPreference(id: string, name: string, value: unknown, allowed?: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ControlOptions {
  input: Readable;
  host: ControlTarget;
  /** Present only with `SVC_HOST_CLOCK=manual`. */
  clock?: ManualClock;
  now(): number;
  emit(event: HostEvent): void;
}

/**
 * Runs one command line; resolves with an error message for a person, or none when done.
 *
 * @example
 * await runControlLine('{"command":"advance","ms":10000}', options);
 */
export async function runControlLine(
  line: string,
  options: ControlOptions,
): Promise<{ command: string; error?: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { command: "?", error: `not JSON: ${line.slice(0, 80)}` };
  }
  const input = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const command = typeof input.command === "string" ? input.command : "?";
  switch (command) {
    case "pause":
      options.host.pause();
      return { command };
    case "resume":
      options.host.resume();
      return { command };
    case "run": {
      const trigger = input.trigger === "preferences" ? "preferences" : "manual";
      if (typeof input.id !== "string") return { command, error: 'needs "id": the extension id' };
      return options.host.runNow(input.id, trigger)
        ? { command }
        : { command, error: `no loaded extension ${input.id}` };
    }
    case "action": {
      const { blipId, actionId, itemId } = input;
      if (typeof blipId !== "string" || typeof actionId !== "string")
        return { command, error: 'needs "blipId" and "actionId"' };
      try {
        await options.host.action({
          blipId,
          actionId,
          ...(typeof input.input === "string" ? { input: input.input } : {}),
          ...(typeof itemId === "string" ? { itemId } : {}),
        });
        return { command };
      } catch (error) {
        return { command, error: (error as Error).message };
      }
    }
    case "set-preference": {
      const { id, name } = input;
      if (typeof id !== "string" || typeof name !== "string")
        return { command, error: 'needs "id" (the extension id), "name" (the option) and "value" (null clears it)' };
      if (!Object.hasOwn(input, "value")) return { command, error: `needs "value" for "${name}"; null clears it` };
      try {
        await options.host.setPreference(
          id,
          name,
          input.value,
          typeof input.allowed === "string" ? input.allowed : undefined,
        );
        return { command };
      } catch (error) {
        return { command, error: (error as Error).message };
      }
    }
    case "advance": {
      if (!options.clock)
        return { command, error: "the clock is not manual: start svc-host with SVC_HOST_CLOCK=manual" };
      const ms = input.ms;
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
        return { command, error: '"ms" should be a number of milliseconds, 0 or more' };
      options.clock.advance(ms);
      return { command };
    }
    case "stop":
      void options.host.stop();
      return { command };
    default:
      return { command, error: "unknown command: use pause, resume, run, action, set-preference, advance or stop" };
  }
}

/**
 * Reads commands from `input` until it ends.
 *
 * @example
 * listenForControl({ input: process.stdin, host, clock, now: () => clock.now(), emit: display.show });
 */
export function listenForControl(options: ControlOptions): () => void {
  const lines = createInterface({ input: options.input, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    void runControlLine(line, options).then(({ command, error }) =>
      options.emit({
        type: "control",
        command,
        ok: error === undefined,
        ...(error ? { error } : {}),
        now: options.now(),
      }),
    );
  });
  return () => lines.close();
}
