/**
 * The tool spec (SPEC.md, "Tool spec"): flat JSON, written to `dist/tools.json` by
 * `svckit build` in canonical form. Decoding fills every default: `summary` "", `category`
 * `everyday`, `fields`/`actions`/`dropActions`/`clipboardKinds` [], `live` false,
 * `remembersInputs` true, an action's `role` `default`, a drop action's `minimumFiles` 1.
 */
import { z } from "zod";
import { fieldSchema } from "./fields.js";
import { LIMITS } from "./limits.js";
import { maxChars, nonEmpty } from "./text.js";
import { displayLine, nonEmptyDisplayLine } from "../display/display-text.js";

export const TOOL_CATEGORIES = ["image", "video", "pdf", "developer", "design", "everyday"] as const;
export const CLIPBOARD_KINDS = ["json", "jwt", "url", "base64", "timestamp", "color", "uuid", "curl"] as const;
export const ACTION_ROLES = ["default", "primary", "destructive"] as const;

/** A tool id (its name within the extension): 1–64 letters, digits, `-` or `_`. */
export const toolIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "should be 1–64 letters, digits, - or _" });

/**
 * A button of a tool. The first action is what Return runs.
 *
 * @example { id: "format", title: "Format", icon: "wand.and.stars", role: "primary" }
 */
export const toolActionSchema = z.object({
  id: nonEmpty.max(64, { error: "should be at most 64 characters" }),
  title: nonEmptyDisplayLine,
  icon: z.string().optional(),
  role: z.enum(ACTION_ROLES).default("default"),
});

/**
 * What the tool does with files dropped on it, handled by its `drop()`.
 *
 * @example { id: "shrink", title: "Shrink", icon: "arrow.down.right.and.arrow.up.left", accepts: ["public.image"] }
 */
export const dropActionSchema = z.object({
  id: nonEmpty.max(64, { error: "should be at most 64 characters" }),
  title: nonEmptyDisplayLine,
  icon: nonEmpty,
  accepts: z.array(nonEmpty).min(1, { error: "should have at least 1 type" }),
  minimumFiles: z.number().int().min(1, { error: "should be at least 1" }).default(1),
});

/** Reports every id of `entries` seen before, at `<key>.<index>.id`. */
function reportRepeatedIds(entries: { id: string }[], key: string, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (seen.has(entry.id)) {
      ctx.addIssue({ code: "custom", path: [key, i, "id"], message: `should be unique: "${entry.id}" is used twice` });
    }
    seen.add(entry.id);
  });
}

/**
 * A tool spec. Parse with it (or `decodeToolSpec`) to get every default filled in.
 *
 * @example
 * { id: "json-format", title: "Format JSON", icon: "curlybraces",
 *   fields: [{ id: "input", type: "code", language: "json" }],
 *   actions: [{ id: "format", title: "Format" }], clipboardKinds: ["json"] }
 */
export const toolSpecSchema = z
  .object({
    id: toolIdSchema,
    title: nonEmptyDisplayLine.pipe(maxChars(LIMITS.toolTitleChars)),
    icon: nonEmpty,
    summary: displayLine.pipe(maxChars(LIMITS.toolSummaryChars)).default(""),
    category: z.enum(TOOL_CATEGORIES).default("everyday"),
    fields: z
      .array(fieldSchema)
      .max(LIMITS.toolFields, { error: `should have at most ${LIMITS.toolFields} fields` })
      .default([]),
    actions: z
      .array(toolActionSchema)
      .max(LIMITS.toolActions, { error: `should have at most ${LIMITS.toolActions} actions` })
      .default([]),
    live: z.boolean().default(false),
    remembersInputs: z.boolean().default(true),
    dropActions: z
      .array(dropActionSchema)
      .max(LIMITS.dropActions, { error: `should have at most ${LIMITS.dropActions} drop actions` })
      .default([]),
    clipboardKinds: z
      .array(z.enum(CLIPBOARD_KINDS))
      .default([])
      // Listing a kind twice means nothing more than listing it once.
      .transform((kinds) => [...new Set(kinds)]),
  })
  .superRefine((spec, ctx) => {
    reportRepeatedIds(spec.fields, "fields", ctx);
    reportRepeatedIds(spec.actions, "actions", ctx);
    reportRepeatedIds(spec.dropActions, "dropActions", ctx);
    const primaries = spec.actions.flatMap((action, i) => (action.role === "primary" ? [i] : []));
    if (primaries.length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["actions", primaries[1], "role"],
        message: "should not be primary: only one action may be primary",
      });
    }
  });

export type ToolCategory = (typeof TOOL_CATEGORIES)[number];
export type ClipboardKind = (typeof CLIPBOARD_KINDS)[number];
export type ActionRole = (typeof ACTION_ROLES)[number];
export type ToolAction = z.infer<typeof toolActionSchema>;
export type ToolActionInput = z.input<typeof toolActionSchema>;
export type DropAction = z.infer<typeof dropActionSchema>;
export type DropActionInput = z.input<typeof dropActionSchema>;
/** A decoded tool spec: every default spelled out. */
export type ToolSpec = z.infer<typeof toolSpecSchema>;
/** A tool spec as written: defaulted keys optional. */
export type ToolSpecInput = z.input<typeof toolSpecSchema>;
