/**
 * Tool input fields (SPEC.md, "Field types"). Each field is `{id, type, label?, placeholder?,
 * default?, …}` with extra keys per type. Decoding fills the defaults SPEC.md names:
 * a file field's `types` (`["public.item"]`) and `multiple` (`false`).
 */
import { z } from "zod";
import { LIMITS } from "./limits.js";
import { nonEmpty } from "./text.js";

const finite = z.number().refine(Number.isFinite, { error: "should be a finite number" });

/** A field id: the key of its value in `values`. 1–64 characters. */
export const fieldIdSchema = nonEmpty.max(64, { error: "should be at most 64 characters" });

const baseShape = {
  id: fieldIdSchema,
  label: z.string().optional(),
  placeholder: z.string().optional(),
};

/** @example { id: "input", type: "text", label: "Text", default: "" } */
export const textFieldSchema = z.object({
  ...baseShape,
  type: z.literal("text"),
  default: z.string().optional(),
});

/** @example { id: "json", type: "code", language: "json" } */
export const codeFieldSchema = z.object({
  ...baseShape,
  type: z.literal("code"),
  default: z.string().optional(),
  language: z.string().optional(),
});

/**
 * Files the person picks or drops; the value is a list of absolute paths (one at most unless
 * `multiple`). A file field takes no `default`.
 *
 * @example { id: "images", type: "file", types: ["public.image"], multiple: true }
 */
export const fileFieldSchema = z.object({
  ...baseShape,
  type: z.literal("file"),
  default: z.undefined({ error: "is not allowed on a file field" }).optional(),
  types: z.array(nonEmpty).min(1, { error: "should have at least 1 type" }).default(["public.item"]),
  multiple: z.boolean().default(false),
});

/** One option of a choice field. */
export const choiceOptionSchema = z.object({ id: nonEmpty, title: nonEmpty });

/**
 * One of 1–24 options (unique ids); the value is the chosen option's id.
 *
 * @example { id: "case", type: "choice", options: [{ id: "upper", title: "UPPER" }, { id: "lower", title: "lower" }], default: "lower" }
 */
export const choiceFieldSchema = z
  .object({
    ...baseShape,
    type: z.literal("choice"),
    default: z.string().optional(),
    options: z
      .array(choiceOptionSchema)
      .min(1, { error: "should have at least 1 option" })
      .max(LIMITS.choiceOptions, { error: `should have at most ${LIMITS.choiceOptions} options` }),
  })
  .superRefine((field, ctx) => {
    const ids = new Set<string>();
    field.options.forEach((option, i) => {
      if (ids.has(option.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["options", i, "id"],
          message: `should be unique: "${option.id}" is used twice`,
        });
      }
      ids.add(option.id);
    });
    if (field.default !== undefined && !ids.has(field.default)) {
      ctx.addIssue({
        code: "custom",
        path: ["default"],
        message: `should be one of the option ids: ${[...ids].join(", ")}`,
      });
    }
  });

/** @example { id: "pretty", type: "toggle", label: "Pretty print", default: true } */
export const toggleFieldSchema = z.object({
  ...baseShape,
  type: z.literal("toggle"),
  default: z.boolean().optional(),
});

/**
 * A number, clamped to `min`..`max` when given.
 *
 * @example { id: "quality", type: "number", min: 1, max: 100, step: 1, unit: "%", default: 80 }
 */
export const numberFieldSchema = z
  .object({
    ...baseShape,
    type: z.literal("number"),
    default: finite.optional(),
    min: finite.optional(),
    max: finite.optional(),
    step: finite.refine((n) => n > 0, { error: "should be more than 0" }).optional(),
    unit: z.string().optional(),
  })
  .superRefine((field, ctx) => {
    const { min, max } = field;
    if (min !== undefined && max !== undefined && min > max) {
      ctx.addIssue({ code: "custom", path: ["max"], message: `should be at least min (${min})` });
      return;
    }
    if (field.default === undefined) return;
    if ((min !== undefined && field.default < min) || (max !== undefined && field.default > max)) {
      ctx.addIssue({
        code: "custom",
        path: ["default"],
        message: `should be within ${min ?? "-∞"}..${max ?? "∞"}`,
      });
    }
  });

/** One name/value pair (headers, query parameters, environment). */
export const pairSchema = z.object({ name: z.string(), value: z.string() });

/** @example { id: "headers", type: "pairs", default: [{ name: "Accept", value: "application/json" }] } */
export const pairsFieldSchema = z.object({
  ...baseShape,
  type: z.literal("pairs"),
  default: z.array(pairSchema).optional(),
});

/** Field type names. */
export const FIELD_TYPES = ["text", "code", "file", "choice", "toggle", "number", "pairs"] as const;

/** Any field, told apart by `type`. */
export const fieldSchema = z.discriminatedUnion("type", [
  textFieldSchema,
  codeFieldSchema,
  fileFieldSchema,
  choiceFieldSchema,
  toggleFieldSchema,
  numberFieldSchema,
  pairsFieldSchema,
]);

export type FieldType = (typeof FIELD_TYPES)[number];
/** A decoded field (file `types` and `multiple` filled in). */
export type Field = z.infer<typeof fieldSchema>;
/** A field as written (defaults optional). */
export type FieldInput = z.input<typeof fieldSchema>;
export type TextField = z.infer<typeof textFieldSchema>;
export type CodeField = z.infer<typeof codeFieldSchema>;
export type FileField = z.infer<typeof fileFieldSchema>;
export type ChoiceField = z.infer<typeof choiceFieldSchema>;
export type ChoiceOption = z.infer<typeof choiceOptionSchema>;
export type ToggleField = z.infer<typeof toggleFieldSchema>;
export type NumberField = z.infer<typeof numberFieldSchema>;
export type PairsField = z.infer<typeof pairsFieldSchema>;
export type Pair = z.infer<typeof pairSchema>;
/** The value type `run()` receives for each field type. */
export interface FieldValueMap {
  text: string;
  code: string;
  file: string[];
  choice: string;
  toggle: boolean;
  number: number;
  pairs: Pair[];
}
/** Any normalized field value. */
export type AnyFieldValue = FieldValueMap[FieldType];
