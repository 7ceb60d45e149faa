/**
 * Tool results: a tool's `run()` returns a list of blocks, drawn top to bottom in the notch.
 * A `drop()` returns a {@link DropResult}. Limits are applied by `processToolResult`: 24 blocks,
 * 64 rows per table, 64 paths per files block, text and code cut past 100,000 characters.
 */
import { z } from "zod";
import { displayValueSchema } from "./values.js";
import { absolutePathSchema, httpUrlSchema, nonEmpty } from "./text.js";

/** Status tones. Every tone but `neutral` is drawn with a shape as well as a colour. */
export const TONES = ["neutral", "positive", "warning", "critical"] as const;

/**
 * A one-line status. `tone` defaults to `neutral`.
 *
 * @example
 * { type: "status", text: "Copied to the clipboard", tone: "positive" }
 */
export const statusBlockSchema = z.object({
  type: z.literal("status"),
  text: z.string(),
  tone: z.enum(TONES).default("neutral"),
});

/**
 * Text, with the same shape as a text typed value.
 *
 * @example
 * { type: "text", value: "3 files renamed." }
 */
export const textBlockSchema = z.object({
  type: z.literal("text"),
  value: z.string(),
});

/**
 * Code or other monospaced text, with an optional language for highlighting.
 *
 * @example
 * { type: "code", text: "{\n  \"ok\": true\n}", language: "json" }
 */
export const codeBlockSchema = z.object({
  type: z.literal("code"),
  text: z.string(),
  language: z.string().optional(),
});

/**
 * One table row: a name, a value formatted for the viewer's locale (typed, or a bare string or
 * number), and an optional http(s) link.
 *
 * @example
 * { name: "Expires", value: { type: "date", value: "2025-06-01T00:00:00.000Z" } }
 */
export const tableRowSchema = z.object({
  name: z.string(),
  value: displayValueSchema,
  url: httpUrlSchema.optional(),
});

/**
 * Name/value rows.
 *
 * @example
 * { type: "table", rows: [{ name: "Algorithm", value: "HS256" }] }
 */
export const tableBlockSchema = z.object({
  type: z.literal("table"),
  rows: z.array(tableRowSchema),
});

/**
 * Files the tool wrote (inside its data folder) or was given, as absolute paths.
 *
 * @example
 * { type: "files", paths: ["/Users/me/Library/Application Support/Svc/Data/x/out.pdf"] }
 */
export const filesBlockSchema = z.object({
  type: z.literal("files"),
  paths: z.array(absolutePathSchema),
});

/**
 * An image file, by absolute path.
 *
 * @example
 * { type: "image", path: "/tmp/svc-data/com.example.img/preview.png" }
 */
export const imageBlockSchema = z.object({
  type: z.literal("image"),
  path: absolutePathSchema,
});

/** The pictures an image block can show (by file extension), with their media types. */
const IMAGE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** Largest picture sent inline (to the page, or to an agent over MCP); a larger one is named by its path. */
export const MAX_INLINE_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * The media type of an image block's file, from its extension; undefined when it is not a PNG,
 * JPEG, GIF or WebP (such a block is shown by its path only).
 *
 * @example imageMediaType("/tmp/a/Preview.PNG") // "image/png"
 */
export function imageMediaType(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? IMAGE_MEDIA_TYPES[name.slice(dot).toLowerCase()] : undefined;
}

/**
 * A colour swatch: `#` and 3, 6 or 8 hex digits.
 *
 * @example
 * { type: "color", hex: "#ff8800" }
 */
export const colorBlockSchema = z.object({
  type: z.literal("color"),
  hex: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, {
    error: "should be # and 3, 6 or 8 hex digits, like #ff8800",
  }),
});

/** The block `type` names. */
export const BLOCK_TYPES = ["status", "text", "code", "table", "files", "image", "color"] as const;

/** Any result block, told apart by `type`. */
export const blockSchema = z.discriminatedUnion("type", [
  statusBlockSchema,
  textBlockSchema,
  codeBlockSchema,
  tableBlockSchema,
  filesBlockSchema,
  imageBlockSchema,
  colorBlockSchema,
]);

/** What a tool run gives back: its blocks, in order. */
export const toolResultSchema = z.array(blockSchema);

/**
 * What a drop action gives back: a message, the files it wrote, and text it copied.
 *
 * @example
 * { message: "Compressed 3 images", outputs: ["/…/Data/com.example.img/a.jpg"] }
 */
export const dropResultSchema = z.object({
  message: nonEmpty,
  outputs: z.array(absolutePathSchema),
  copiedText: z.string().optional(),
});

export type Tone = (typeof TONES)[number];
export type StatusBlock = z.infer<typeof statusBlockSchema>;
/** A status block as a tool may write it: `tone` optional. */
export type StatusBlockInput = z.input<typeof statusBlockSchema>;
export type TextBlock = z.infer<typeof textBlockSchema>;
export type CodeBlock = z.infer<typeof codeBlockSchema>;
export type TableRow = z.infer<typeof tableRowSchema>;
export type TableBlock = z.infer<typeof tableBlockSchema>;
export type FilesBlock = z.infer<typeof filesBlockSchema>;
export type ImageBlock = z.infer<typeof imageBlockSchema>;
export type ColorBlock = z.infer<typeof colorBlockSchema>;
/** A validated block (status `tone` filled in). */
export type Block = z.infer<typeof blockSchema>;
/** A block as a tool may return it (status `tone` optional). */
export type BlockInput = z.input<typeof blockSchema>;
export type ToolResult = z.infer<typeof toolResultSchema>;
export type DropResult = z.infer<typeof dropResultSchema>;
