/**
 * Blip states. A blip's `state` says how things stand, and the app draws it (colour plus a
 * shape, so it never relies on colour alone). Left out, a blip is shown without a state.
 *
 * | state       | meaning                                              | typical next          |
 * |-------------|------------------------------------------------------|-----------------------|
 * | `idle`      | nothing under way; a standing figure                 | `running`             |
 * | `running`   | work under way (a build, a deploy, an agent)         | `success`, `failure`  |
 * | `waiting`   | blocked on someone: a review, a reply, a permission  | `running`             |
 * | `success`   | finished well                                        | (ended)               |
 * | `warning`   | worth a look, not broken                             | `success`, `failure`  |
 * | `failure`   | failed or broken                                     | (ended), `running`    |
 * | `cancelled` | stopped before it finished                           | (ended)               |
 *
 * Any state may follow any other: the runtime does not enforce transitions. `ctx.end(key,
 * {state})` usually moves a `running` blip to `success`, `failure` or `cancelled`.
 *
 * @example
 * { state: "running" }  // then ctx.end("deploy-42", { state: "success" })
 */
import { z } from "zod";

export const BLIP_STATES = ["idle", "running", "waiting", "success", "warning", "failure", "cancelled"] as const;

export const blipStateSchema = z.enum(BLIP_STATES);

export type BlipState = z.infer<typeof blipStateSchema>;

/**
 * The state of one stage of a progress blip (`data.stages`).
 *
 * @example
 * { title: "Build", state: "done" }
 */
export const STAGE_STATES = ["pending", "running", "done", "failed", "skipped"] as const;

export const stageStateSchema = z.enum(STAGE_STATES);

export type StageState = z.infer<typeof stageStateSchema>;
