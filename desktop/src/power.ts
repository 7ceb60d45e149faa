/**
 * Sleep and lock → the host's pause and resume (SPEC.md: runs are paused while the screen is
 * asleep or locked; on waking, overdue blips refresh once, which the host's resume does).
 *
 * Several reasons can hold the pause at once (the system suspended, the screen locked, another
 * user in front, the person's own "Pause" in the menu); the host is resumed only when the last
 * one lets go, so waking a Mac into its lock screen stays paused until it is unlocked.
 *
 * Electron reports `suspend`/`resume` (all systems), `lock-screen`/`unlock-screen` (macOS,
 * Windows) and fast user switching (macOS). It has no event for the display sleeping; every
 * {@link IDLE_POLL_MS} the shell also asks `getSystemIdleState`, whose `locked` covers a lock
 * screen and (macOS) a running screen saver, including on Linux where no lock event comes.
 */
import type { PowerMonitor } from "./electron-api.js";

export type PauseReason = "suspended" | "locked" | "idle-locked" | "switched-user" | "menu";

export const IDLE_POLL_MS = 15_000;

export interface PauseTarget {
  pause(): Promise<void> | void;
  resume(): Promise<void> | void;
}

/** Reasons in, one pause or resume out per change of "any reason held". */
export class PauseReasons {
  private readonly held = new Set<PauseReason>();
  private readonly listeners = new Set<(paused: boolean) => void>();

  constructor(
    private readonly target: PauseTarget,
    private readonly onError: (message: string) => void,
  ) {}

  get paused(): boolean {
    return this.held.size > 0;
  }

  has(reason: PauseReason): boolean {
    return this.held.has(reason);
  }

  /** Reported on every change of `paused` (the tray's checkbox). */
  onChange(listener: (paused: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  set(reason: PauseReason, on: boolean): void {
    const before = this.paused;
    if (on) this.held.add(reason);
    else this.held.delete(reason);
    if (before === this.paused) return;
    const call = this.paused ? () => this.target.pause() : () => this.target.resume();
    Promise.resolve()
      .then(call)
      .catch((error: unknown) =>
        this.onError(
          `could not ${this.paused ? "pause" : "resume"} svc: ${(error as Error)?.message ?? String(error)}`,
        ),
      );
    for (const listener of this.listeners) listener(this.paused);
  }
}

export interface PowerWiring {
  powerMonitor: PowerMonitor;
  reasons: PauseReasons;
  /**
   * Told at start and on every change between battery and mains power: the host then stretches
   * its schedules (×3) or goes back to the usual. `on-battery` comes on macOS only and `on-ac` on
   * macOS and Windows, so the state is also asked every {@link IDLE_POLL_MS} (Linux included).
   */
  onBattery?: (on: boolean) => void;
  /** Default: the real timers. */
  setInterval?: (callback: () => void, ms: number) => { unref?(): void };
  clearInterval?: (handle: any) => void;
}

/** Listens to the system; returns the function that stops listening. */
export function wirePower({
  powerMonitor,
  reasons,
  onBattery,
  setInterval: every = setInterval,
  clearInterval: stopEvery = clearInterval,
}: PowerWiring): () => void {
  const listeners: [Parameters<PowerMonitor["on"]>[0], () => void][] = [
    ["suspend", () => reasons.set("suspended", true)],
    ["resume", () => reasons.set("suspended", false)],
    ["lock-screen", () => reasons.set("locked", true)],
    ["unlock-screen", () => reasons.set("locked", false)],
    ["user-did-resign-active", () => reasons.set("switched-user", true)],
    ["user-did-become-active", () => reasons.set("switched-user", false)],
  ];
  let battery = false; // mains power until the system says otherwise
  const checkBattery = () => {
    const on = powerMonitor.isOnBatteryPower();
    if (on === battery) return;
    battery = on;
    onBattery?.(on);
  };
  listeners.push(["on-battery", checkBattery], ["on-ac", checkBattery]);
  for (const [event, listener] of listeners) powerMonitor.on(event, listener);
  checkBattery();
  const poll = () => {
    reasons.set("idle-locked", powerMonitor.getSystemIdleState(60) === "locked");
    checkBattery();
  };
  const timer = every(poll, IDLE_POLL_MS);
  timer.unref?.();
  return () => {
    stopEvery(timer);
    for (const [event, listener] of listeners) powerMonitor.removeListener(event, listener);
  };
}
