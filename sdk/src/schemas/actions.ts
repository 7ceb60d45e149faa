/**
 * The interactive and secondary parts every blip may carry, whatever its layout:
 * buttons (`actions`), quick choices (`choices`) and facts (`facts`).
 *
 * Limits (SPEC.md, runtime processing rule 1): `choices` and `actions` together keep at most 4
 * — quick choices first, then actions, in payload order; `facts` keep 4. A list item's own
 * `actions` keep 3.
 */
import { z } from "zod";
import { displayValueSchema } from "./values.js";
import { httpUrlSchema, nonEmpty } from "./text.js";
import { displayLine, nonEmptyDisplayLine } from "../display/display-text.js";

/** Ids of actions, choices and list items: 1–64 characters. */
export const actionIdSchema = nonEmpty.max(64, { error: "should be at most 64 characters" });

/**
 * A button on a blip or on a list item. Pressing it calls the extension's `onAction` with
 * `{blipId, key, actionId, input?, itemId?}`, unless it has a `url`, which the app opens instead.
 *
 * - `role`: `primary` is drawn prominent, `destructive` in a warning colour; default `default`.
 * - `input`: ask the person for a line of text first (a reply, a comment); it arrives as `input`.
 * - `dismisses`: the item (or blip) leaves the list at once when pressed — SPEC.md's "dismissed"
 *   action — and stays out until the update that answers it decides.
 *
 * @example
 * { id: "merge", title: "Merge", icon: "arrow.triangle.merge", role: "primary" }
 * { id: "snooze", title: "Snooze", dismisses: true }
 */
export const actionSchema = z.object({
  id: actionIdSchema,
  title: nonEmptyDisplayLine,
  icon: z.string().optional(),
  role: z.enum(["default", "primary", "destructive"]).optional(),
  url: httpUrlSchema.optional(),
  input: z.object({ placeholder: displayLine.optional() }).optional(),
  dismisses: z.boolean().optional(),
});

/**
 * A quick choice: a short answer to the question the blip asks (an agent asking for
 * permission, a poll). Pressing one calls `onAction` with `actionId` set to the choice's id.
 * Choices are drawn before the actions and share their limit of 4.
 *
 * @example
 * { id: "allow", title: "Allow" }
 */
export const quickChoiceSchema = z.object({
  id: actionIdSchema,
  title: nonEmpty,
});

/**
 * A fact: one labelled value under the blip's main figure.
 *
 * @example
 * { label: "Branch", value: "main" }
 * { label: "Revenue", value: { type: "currency", value: { amount: 420, currency: "USD" } } }
 */
export const factSchema = z.object({
  label: nonEmptyDisplayLine,
  value: displayValueSchema,
});

export type Action = z.infer<typeof actionSchema>;
export type QuickChoice = z.infer<typeof quickChoiceSchema>;
export type Fact = z.infer<typeof factSchema>;
