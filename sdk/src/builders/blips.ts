/**
 * Blip builders, one per layout. Each takes the blip's key (its id is `<extensionId>/<key>`)
 * and one options object: the common fields ({@link BlipOptions}: title, icon, state, actions …)
 * beside the layout's own. Each returns what `ctx.emit` takes: the payload without `id`, `seq`,
 * `emittedAt` and `v`, plus `key`. Moments may be given in any date form; they become ISO strings.
 */
import type { BlipInputOf, DisplayValue, ListItem, Meter, ProgressStage, ScoreSide } from "../schemas/index.js";
import { type BlipOptions, assemble, compact } from "./common.js";
import { type DateInput, toIsoString } from "./instant.js";

export type { BlipOptions } from "./common.js";

/** A fraction held to 0–1, so a computed 1.0000001 still draws as full. NaN is left for the check to name. */
function unit(fraction: number): number {
  return fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
}

/**
 * `stat`: one figure, with an optional label, change (`delta`) and sparkline (`series`,
 * oldest first; the newest 48 points are kept).
 *
 * @example
 * stat("revenue", { title: "Revenue", value: currency(1250, "EUR"), label: "Today",
 *   delta: percent(0.12), series: [3, 5, 4, 8] })
 */
export function stat(
  key: string,
  options: BlipOptions & { value: DisplayValue; label?: string; delta?: DisplayValue; series?: number[] },
): BlipInputOf<"stat"> {
  const { value, label, delta, series } = options;
  return assemble(key, "stat", options, { value, label, delta, series });
}

/**
 * `progress`: how far a job has got. `fraction` is 0–1 (held to that range), `step` says what
 * happens now, `stages` (first 6 kept) show the pipeline.
 *
 * @example
 * progress("deploy-web", { title: "Deploying web", state: "running", fraction: 0.6,
 *   step: "Uploading assets", stages: [{ title: "Build", state: "done" }, { title: "Upload", state: "running" }] })
 */
export function progress(
  key: string,
  options: BlipOptions & { fraction: number; step?: string; stages?: ProgressStage[] },
): BlipInputOf<"progress"> {
  const { fraction, step, stages } = options;
  return assemble(key, "progress", options, { fraction: unit(fraction), step, stages });
}

/**
 * `session`: something live since `startedAt`, drawn with a running clock.
 *
 * @example
 * session("agent", { title: "Claude is coding", state: "running", startedAt: Date.now(),
 *   step: "Editing src/app.ts" })
 */
export function session(
  key: string,
  options: BlipOptions & { startedAt: DateInput; step?: string },
): BlipInputOf<"session"> {
  return assemble(key, "session", options, { startedAt: toIsoString(options.startedAt), step: options.step });
}

/**
 * `list`: a few rows (first 5 kept; each item's actions, first 3). `total` says how many
 * exist in all when there are more than shown. Item ids must be unique in the list.
 *
 * @example
 * list("reviews", { title: "Reviews", total: 12, items: [
 *   { id: "pr-42", title: "Fix login redirect", subtitle: "octo/web · 2h", state: "waiting",
 *     url: "https://github.com/octo/web/pull/42", actions: [{ id: "approve", title: "Approve" }] }] })
 */
export function list(key: string, options: BlipOptions & { items: ListItem[]; total?: number }): BlipInputOf<"list"> {
  return assemble(key, "list", options, { items: options.items.map(compact), total: options.total });
}

/**
 * `score`: two sides and their scores, with an optional `period`.
 *
 * @example
 * score("game", { title: "Lakers – Celtics", state: "running", period: "Q4 2:31",
 *   home: { name: "Lakers", score: 98 }, away: { name: "Celtics", score: 101 } })
 */
export function score(
  key: string,
  options: BlipOptions & { home: ScoreSide; away: ScoreSide; period?: string },
): BlipInputOf<"score"> {
  const { home, away, period } = options;
  return assemble(key, "score", options, { home: compact(home), away: compact(away), period });
}

/**
 * `countdown`: time left until `endsAt`; with `startedAt` the app also draws how much of the
 * wait has passed.
 *
 * @example
 * countdown("standup", { title: "Stand-up", endsAt: "2025-03-01T10:00:00Z", startedAt: Date.now() })
 */
export function countdown(
  key: string,
  options: BlipOptions & { endsAt: DateInput; startedAt?: DateInput },
): BlipInputOf<"countdown"> {
  const { endsAt, startedAt } = options;
  return assemble(key, "countdown", options, {
    endsAt: toIsoString(endsAt),
    startedAt: startedAt === undefined ? undefined : toIsoString(startedAt),
  });
}

/** One gauge as the `meter` builder takes it: `resetsAt` in any date form. */
export type MeterInput = Omit<Meter, "resetsAt"> & { resetsAt?: DateInput };

/**
 * `meter`: one to four gauges (first 4 kept), each a `fraction` used (held to 0–1), an
 * optional value, and when it resets.
 *
 * @example
 * meter("quota", { title: "GitHub API", meters: [
 *   { label: "Core", fraction: 4150 / 5000, value: "4,150 / 5,000", resetsAt: 1740821400 }] })
 */
export function meter(key: string, options: BlipOptions & { meters: MeterInput[] }): BlipInputOf<"meter"> {
  const meters = options.meters.map(({ label, fraction, value, resetsAt }) =>
    compact({
      label,
      fraction: unit(fraction),
      value,
      resetsAt: resetsAt === undefined ? undefined : toIsoString(resetsAt),
    }),
  );
  return assemble(key, "meter", options, { meters });
}
