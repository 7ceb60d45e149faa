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
import { HttpError } from "../support/http/index.js";

/** What the routes need from the host: its own `pause()`/`resume()`, which also emit the events. */
export interface SchedulerControl {
  readonly paused: boolean;
  pause(): void;
  resume(): void;
  readonly onBattery: boolean;
  setOnBattery(on: boolean): void;
}

function methodNotAllowed(allowed: string) {
  return function methodNotAllowed(req: Request): never {
    throw new HttpError(
      405,
      `${req.method} is not allowed on ${req.baseUrl}${req.path === "/" ? "" : req.path}: use ${allowed}`,
      { Allow: allowed },
    );
  };
}

/**
 * @example
 * app.use("/v1/scheduler", schedulerRoutes({ get paused() { return scheduler.paused; }, pause, resume }));
 */
export function schedulerRoutes(control: SchedulerControl): Router {
  const router = Router({ strict: true });
  router
    .route("/")
    .get((_req, res) => void res.status(200).json({ paused: control.paused, onBattery: control.onBattery }))
    .all(methodNotAllowed("GET"));
  router
    .route("/pause")
    .post((_req, res) => {
      control.pause();
      res.status(200).json({ ok: true, paused: true });
    })
    .all(methodNotAllowed("POST"));
  router
    .route("/resume")
    .post((_req, res) => {
      control.resume();
      res.status(200).json({ ok: true, paused: false });
    })
    .all(methodNotAllowed("POST"));
  for (const [path, on] of [
    ["/on-battery", true],
    ["/on-power", false],
  ] as const)
    router
      .route(path)
      .post((_req, res) => {
        control.setOnBattery(on);
        res.status(200).json({ ok: true, onBattery: on });
      })
      .all(methodNotAllowed("POST"));
  return router;
}
