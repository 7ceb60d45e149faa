/**
 * Manifest preferences (SPEC.md, "Preferences"): options a person sets in Settings. Each has
 * `name`, `title`, `type` and optional `required`, `placeholder`, `description`, `default` and
 * `blips` (show the option only on blips whose key is, or begins with, one of these).
 */
import { z } from "zod";
import { nonEmpty } from "./text.js";
import { displayLine, displayParagraph, nonEmptyDisplayLine } from "../display/display-text.js";

const commonShape = {
  name: nonEmpty,
  title: nonEmptyDisplayLine,
  required: z.boolean().optional(),
  placeholder: displayLine.optional(),
  description: displayParagraph.optional(),
  blips: z.array(nonEmpty).optional(),
};

/**
 * Text. With `multiline: true` it holds a few entries, one per line.
 *
 * @example { name: "repos", title: "Repositories", type: "textfield", multiline: true }
 */
export const textfieldPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("textfield"),
  default: z.string().optional(),
  multiline: z.boolean().optional(),
});

/**
 * A secret, kept by the host in the operating system's secret store.
 *
 * @example { name: "token", title: "API token", type: "password", required: true }
 */
export const passwordPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("password"),
  default: z.string().optional(),
});

/** @example { name: "showDrafts", title: "Show drafts", type: "checkbox", default: false } */
export const checkboxPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("checkbox"),
  default: z.boolean().optional(),
});

/** One choice of a dropdown. */
export const dropdownChoiceSchema = z.object({ title: nonEmptyDisplayLine, value: z.string() });

/**
 * One of the choices in `data`; the value is the choice's `value`.
 *
 * @example { name: "region", title: "Region", type: "dropdown", data: [{ title: "EU", value: "eu" }], default: "eu" }
 */
export const dropdownPreferenceSchema = z
  .object({
    ...commonShape,
    type: z.literal("dropdown"),
    default: z.string().optional(),
    data: z.array(dropdownChoiceSchema).min(1, { error: "should have at least 1 choice" }),
  })
  .superRefine((pref, ctx) => {
    const values = pref.data.map((choice) => choice.value);
    if (pref.default !== undefined && !values.includes(pref.default)) {
      ctx.addIssue({ code: "custom", path: ["default"], message: `should be one of the choices: ${values.join(", ")}` });
    }
  });

/** @example { name: "threshold", title: "Alert above", type: "number", default: 100 } */
export const numberPreferenceSchema = z.object({
  ...commonShape,
  type: z.literal("number"),
  default: z.number().optional(),
});

export const PREFERENCE_TYPES = ["textfield", "password", "checkbox", "dropdown", "number"] as const;

export const preferenceSchema = z.discriminatedUnion("type", [
  textfieldPreferenceSchema,
  passwordPreferenceSchema,
  checkboxPreferenceSchema,
  dropdownPreferenceSchema,
  numberPreferenceSchema,
]);

export type PreferenceType = (typeof PREFERENCE_TYPES)[number];
export type Preference = z.infer<typeof preferenceSchema>;
export type DropdownChoice = z.infer<typeof dropdownChoiceSchema>;
