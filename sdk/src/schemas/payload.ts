/**
 * The blip payload: what the runtime sends in `blip.update` and what `POST /v1/blips` takes.
 *
 * Every payload has the common fields below, a `layout` and that layout's `data`
 * (see `layouts.ts`). The stamped fields `id`, `v`, `seq` and `emittedAt` are required here:
 * the runtime (for extensions) and the host (for pushed blips) fill them in before validating.
 * Unknown keys are dropped.
 *
 * Where the limited parts live: `actions`, `choices` (quick choices) and `facts` at the top
 * level; `data.items` (list), `data.items[].actions`, `data.stages` (progress),
 * `data.meters` (meter) and `data.series` (stat).
 *
 * @example
 * {
 *   v: 1, id: "com.example.deploys/web", seq: 7, emittedAt: "2025-03-01T09:30:00.000Z",
 *   title: "Deploying web", icon: "shippingbox", state: "running",
 *   layout: "progress", data: { fraction: 0.4, step: "Building image" },
 *   facts: [{ label: "Commit", value: "a1b2c3d" }],
 *   actions: [{ id: "cancel", title: "Cancel", role: "destructive" }]
 * }
 */
import { z } from "zod";
import { actionSchema, factSchema, quickChoiceSchema } from "./actions.js";
import {
  countdownDataSchema,
  listDataSchema,
  meterDataSchema,
  progressDataSchema,
  scoreDataSchema,
  sessionDataSchema,
  statDataSchema,
} from "./layouts.js";
import { PAYLOAD_VERSION } from "./limits.js";
import { blipStateSchema } from "./states.js";
import { httpUrlSchema, isoDateSchema, nonEmpty } from "./text.js";
import { displayLine, nonEmptyDisplayLine } from "../display/display-text.js";

/**
 * A blip key: the part after `<extensionId>/` in a blip id. 1–128 characters.
 *
 * @example
 * "deploy-42"
 */
export const blipKeySchema = nonEmpty.max(128, { error: "should be at most 128 characters" });

/**
 * A blip id: `<extensionId>/<key>` (pushed blips: `webhook/<key>`).
 *
 * @example
 * "com.example.deploys/web"
 */
export const blipIdSchema = z
  .string()
  .max(256, { error: "should be at most 256 characters" })
  .regex(/^[^/\s]+\/.+$/s, { error: "should be <extensionId>/<key>, like webhook/deploy" });

/** Fields every blip has besides its layout and data, as an extension or a push gives them. */
const commonShape = {
  /** Required; shown as the blip's headline. */
  title: nonEmptyDisplayLine,
  subtitle: displayLine.optional(),
  /** A system symbol name. */
  icon: z.string().optional(),
  state: blipStateSchema.optional(),
  /** Opened when the blip itself is clicked. */
  url: httpUrlSchema.optional(),
  /** Buttons; with `choices`, at most 4 are kept. */
  actions: z.array(actionSchema).optional(),
  /** Quick choices, drawn before the actions and counted with them. */
  choices: z.array(quickChoiceSchema).optional(),
  /** Labelled values; at most 4 are kept. */
  facts: z.array(factSchema).optional(),
  /** After this moment the app draws the blip as stale (its source went quiet). */
  staleAfter: isoDateSchema.optional(),
};

/** Fields the runtime or host stamps. */
const stampShape = {
  id: blipIdSchema,
  /** The payload format version; always 1. */
  v: z.literal(PAYLOAD_VERSION, { error: `should be ${PAYLOAD_VERSION}` }),
  /** Increases per blip id; stamped by the runtime (or the host for pushed blips). */
  seq: z.number().int().min(0, { error: "should be at least 0" }),
  emittedAt: isoDateSchema,
};

/** One discriminated variant per layout, each with the given common fields. */
function layoutVariants<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return [
    z.object({ ...shape, layout: z.literal("stat"), data: statDataSchema }),
    z.object({ ...shape, layout: z.literal("progress"), data: progressDataSchema }),
    z.object({ ...shape, layout: z.literal("session"), data: sessionDataSchema }),
    z.object({ ...shape, layout: z.literal("list"), data: listDataSchema }),
    z.object({ ...shape, layout: z.literal("score"), data: scoreDataSchema }),
    z.object({ ...shape, layout: z.literal("countdown"), data: countdownDataSchema }),
    z.object({ ...shape, layout: z.literal("meter"), data: meterDataSchema }),
  ] as const;
}

interface IdBearing {
  choices?: { id: string }[];
  actions?: { id: string }[];
  data: unknown;
}

/** Ids a press sends back must tell one button (or list item) from another. */
function checkUniqueIds(payload: IdBearing, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const part of ["choices", "actions"] as const) {
    payload[part]?.forEach((entry, i) => {
      if (seen.has(entry.id)) {
        ctx.addIssue({
          code: "custom",
          path: [part, i, "id"],
          message: `should be unique: "${entry.id}" is used twice`,
        });
      }
      seen.add(entry.id);
    });
  }
  const items = (payload.data as { items?: { id: string; actions?: { id: string }[] }[] }).items;
  if (!Array.isArray(items)) return;
  const itemIds = new Set<string>();
  items.forEach((item, i) => {
    if (itemIds.has(item.id)) {
      ctx.addIssue({
        code: "custom",
        path: ["data", "items", i, "id"],
        message: `should be unique: "${item.id}" is used twice`,
      });
    }
    itemIds.add(item.id);
    const actionIds = new Set<string>();
    item.actions?.forEach((action, j) => {
      if (actionIds.has(action.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["data", "items", i, "actions", j, "id"],
          message: `should be unique: "${action.id}" is used twice`,
        });
      }
      actionIds.add(action.id);
    });
  });
}

/** A complete blip payload, stamped. */
export const blipPayloadSchema = z
  .discriminatedUnion("layout", layoutVariants({ ...stampShape, ...commonShape }))
  .superRefine(checkUniqueIds);

/**
 * What builders return and `ctx.emit` takes: the payload minus `id`, `seq`, `emittedAt` and
 * `v`, plus `key`.
 *
 * @example
 * { key: "web", title: "Deploying web", layout: "progress", data: { fraction: 0.4 } }
 */
export const blipInputSchema = z
  .discriminatedUnion("layout", layoutVariants({ key: blipKeySchema, ...commonShape }))
  .superRefine(checkUniqueIds);

export type BlipPayload = z.infer<typeof blipPayloadSchema>;
export type BlipInput = z.infer<typeof blipInputSchema>;
/** A payload of one layout. @example const p: BlipPayloadOf<"list"> */
export type BlipPayloadOf<L extends BlipPayload["layout"]> = Extract<BlipPayload, { layout: L }>;
/** Builder output of one layout. */
export type BlipInputOf<L extends BlipInput["layout"]> = Extract<BlipInput, { layout: L }>;
