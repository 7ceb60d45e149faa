/**
 * `/v1/scheduler`: pause and resume scheduled runs from outside the host process. The desktop
 * shell calls these when the screen sleeps or locks and when it wakes or unlocks (SPEC.md: runs
 * are paused while the screen is asleep or locked), also when it joined a host it did not start.
 *
 * - `GET /v1/scheduler` → 200 `{"paused": <boolean>, "onBattery": <boolean>}`
 * - `POST /v1/scheduler/pause` → 200 `{"ok": true, "paused": true}`
 * - `POST /v1/scheduler/resume` → 200 `{"ok": true, "paused": false}`; every overdue extension
 *   runs once, then the schedule goes on (a resume while not paused changes nothing)
 *
 * - `POST /v1/scheduler/on-battery` → 200 `{"ok": true, "onBattery": true}`: every scheduled
 *   wait three times as long, never below the manifest interval (the shell on battery)
 * - `POST /v1/scheduler/on-power` → 200 `{"ok": true, "onBattery": false}`: the usual waits
 *
 * No body is read. Every POST is idempotent.
 */
import { Router, type Request } from "express";
import { serve } from "./serve.js";

/** Where `schedulerRoutes` is mounted. */
export const SCHEDULER_MOUNT = "/v1/scheduler";

/** What the routes need from the host: its own `pause()`/`resume()`, which also emit the events. */
export interface SchedulerControl {
  readonly paused: boolean;
  pause(): void;
  resume(): void;
  readonly onBattery: boolean;
  setOnBattery(on: boolean): void;
}

/**
 * @example
 * app.use("/v1/scheduler", schedulerRoutes({ get paused() { return scheduler.paused; }, pause, resume }));
 */
export function schedulerRoutes(control: SchedulerControl): Router {
  const router = Router({ strict: true });
  serve(
    router,
    SCHEDULER_MOUNT,
    "scheduler",
    (_req, res) => void res.status(200).json({ paused: control.paused, onBattery: control.onBattery }),
  );
  serve(router, SCHEDULER_MOUNT, "pauseScheduler", (_req, res) => {
    control.pause();
    res.status(200).json({ ok: true, paused: true });
  });
  serve(router, SCHEDULER_MOUNT, "resumeScheduler", (_req, res) => {
    control.resume();
    res.status(200).json({ ok: true, paused: false });
  });
  for (const [name, on] of [
    ["onBattery", true],
    ["onPower", false],
  ] as const)
    serve(router, SCHEDULER_MOUNT, name, (_req, res) => {
      control.setOnBattery(on);
      res.status(200).json({ ok: true, onBattery: on });
    });
  return router;
}
