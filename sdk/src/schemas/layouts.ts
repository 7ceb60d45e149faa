/**
 * The seven layouts and the shape of `data` for each. A blip names its layout in `layout` and
 * gives that layout's `data`. Limited parts (SPEC.md, runtime processing rule 1) are cut by the
 * runtime, never rejected: `data.series` keeps its newest 48 points (the last ones — series run
 * oldest first), `data.stages` its first 6, `data.items` its first 5 (each item's `actions` its
 * first 3), `data.meters` its first 4.
 */
import { z } from "zod";
import { actionIdSchema, actionSchema } from "./actions.js";
import { blipStateSchema, stageStateSchema } from "./states.js";
import { displayValueSchema } from "./values.js";
import { httpUrlSchema, isoDateSchema, nonEmpty } from "./text.js";
import { displayLine, nonEmptyDisplayLine } from "../display/display-text.js";

const finite = z.number().refine(Number.isFinite, { error: "should be a finite number" });
const fraction = z.number().min(0, { error: "should be at least 0" }).max(1, { error: "should be at most 1" });

/**
 * `stat`: one figure, with an optional label, change and sparkline.
 * `series` runs oldest first; the runtime keeps the newest 48 points.
 *
 * @example
 * { value: { type: "currency", value: { amount: 1250, currency: "EUR" } },
 *   label: "Today", delta: { type: "percent", value: 0.12 }, series: [3, 5, 4, 8] }
 */
export const statDataSchema = z.object({
  value: displayValueSchema,
  label: displayLine.optional(),
  delta: displayValueSchema.optional(),
  series: z.array(finite).optional(),
});

/**
 * One stage of a `progress` blip.
 *
 * @example
 * { title: "Tests", state: "running" }
 */
export const progressStageSchema = z.object({
  title: nonEmpty,
  state: stageStateSchema,
});

/**
 * `progress`: how far a job has got. `fraction` is 0–1, `step` says what happens now, and
 * optional `stages` (first 6 kept) show the pipeline.
 *
 * @example
 * { fraction: 0.6, step: "Uploading assets",
 *   stages: [{ title: "Build", state: "done" }, { title: "Deploy", state: "running" }] }
 */
export const progressDataSchema = z.object({
  fraction,
  step: displayLine.optional(),
  stages: z.array(progressStageSchema).optional(),
});

/**
 * `session`: something live since a moment, drawn with a running clock — an agent at work, a
 * call, a focus block. `step` is what it is doing now.
 *
 * @example
 * { startedAt: "2025-03-01T09:30:00.000Z", step: "Editing src/app.ts" }
 */
export const sessionDataSchema = z.object({
  startedAt: isoDateSchema,
  step: displayLine.optional(),
});

/**
 * One row of a `list` blip. `id` is unique in the list and comes back as `itemId` when one of
 * the item's own `actions` (first 3 kept) is pressed.
 *
 * @example
 * { id: "pr-42", title: "Fix login redirect", subtitle: "octo/web · 2 h", state: "waiting",
 *   url: "https://github.com/octo/web/pull/42",
 *   actions: [{ id: "approve", title: "Approve", role: "primary" }] }
 */
export const listItemSchema = z.object({
  id: actionIdSchema,
  title: nonEmptyDisplayLine,
  subtitle: displayLine.optional(),
  icon: z.string().optional(),
  state: blipStateSchema.optional(),
  value: displayValueSchema.optional(),
  url: httpUrlSchema.optional(),
  actions: z.array(actionSchema).optional(),
});

/**
 * `list`: a few rows (first 5 kept). `total` is how many there are in all, when more exist
 * than are shown ("12 open").
 *
 * @example
 * { items: [{ id: "a1", title: "Checkout errors up 40 %" }], total: 12 }
 */
export const listDataSchema = z.object({
  items: z.array(listItemSchema),
  total: z.number().int().min(0, { error: "should be at least 0" }).optional(),
});

/**
 * One side of a `score`.
 *
 * @example
 * { name: "Lakers", score: 98, icon: "basketball" }
 */
export const scoreSideSchema = z.object({
  name: nonEmptyDisplayLine,
  score: finite,
  icon: z.string().optional(),
});

/**
 * `score`: two sides and their scores, with an optional period ("Q4 2:31", "Half time").
 *
 * @example
 * { home: { name: "Lakers", score: 98 }, away: { name: "Celtics", score: 101 }, period: "Q4 2:31" }
 */
export const scoreDataSchema = z.object({
  home: scoreSideSchema,
  away: scoreSideSchema,
  period: displayLine.optional(),
});

/**
 * `countdown`: time left until `endsAt`. With `startedAt` the app also draws how much of the
 * wait has passed.
 *
 * @example
 * { endsAt: "2025-03-01T10:00:00.000Z", startedAt: "2025-03-01T09:35:00.000Z" }
 */
export const countdownDataSchema = z.object({
  endsAt: isoDateSchema,
  startedAt: isoDateSchema.optional(),
});

/**
 * One gauge of a `meter` blip: a `fraction` used (0–1), an optional value to print, and when it
 * resets (rate limits, quotas).
 *
 * @example
 * { label: "API calls", fraction: 0.83, value: "4,150 / 5,000", resetsAt: "2025-03-01T10:00:00.000Z" }
 */
export const meterSchema = z.object({
  label: nonEmptyDisplayLine,
  fraction,
  value: displayValueSchema.optional(),
  resetsAt: isoDateSchema.optional(),
});

/**
 * `meter`: one to four gauges (first 4 kept).
 *
 * @example
 * { meters: [{ label: "Disk", fraction: 0.71 }, { label: "Memory", fraction: 0.4 }] }
 */
export const meterDataSchema = z.object({
  meters: z.array(meterSchema).min(1, { error: "should have at least 1 meter" }),
});

/** The layout names, in the order SPEC.md lists the builders. */
export const LAYOUTS = ["stat", "progress", "session", "list", "score", "countdown", "meter"] as const;

export const layoutSchema = z.enum(LAYOUTS);

/** The `data` schema of each layout. */
export const layoutDataSchemas = {
  stat: statDataSchema,
  progress: progressDataSchema,
  session: sessionDataSchema,
  list: listDataSchema,
  score: scoreDataSchema,
  countdown: countdownDataSchema,
  meter: meterDataSchema,
} as const;

export type Layout = z.infer<typeof layoutSchema>;
export type StatData = z.infer<typeof statDataSchema>;
export type ProgressStage = z.infer<typeof progressStageSchema>;
export type ProgressData = z.infer<typeof progressDataSchema>;
export type SessionData = z.infer<typeof sessionDataSchema>;
export type ListItem = z.infer<typeof listItemSchema>;
export type ListData = z.infer<typeof listDataSchema>;
export type ScoreSide = z.infer<typeof scoreSideSchema>;
export type ScoreData = z.infer<typeof scoreDataSchema>;
export type CountdownData = z.infer<typeof countdownDataSchema>;
export type Meter = z.infer<typeof meterSchema>;
export type MeterData = z.infer<typeof meterDataSchema>;
/** Layout name → its data type. */
export interface LayoutDataMap {
  stat: StatData;
  progress: ProgressData;
  session: SessionData;
  list: ListData;
  score: ScoreData;
  countdown: CountdownData;
  meter: MeterData;
}
