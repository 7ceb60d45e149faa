/**
 * Tool result processing (SPEC.md, "Result blocks", Errors, Limits): validate what `run()` or
 * `drop()` returned, cut it to the limits, and fail a result over 1 MB. The person sees one
 * short line; the details go to the log.
 */
import { LIMITS } from "../schemas/limits.js";
import { blockSchema, dropResultSchema, type Block, type DropResult } from "../schemas/blocks.js";
import { jsonByteLength } from "../schemas/text.js";
import { formatIssues, safeParse } from "./issues.js";

export type ProcessedToolResult =
  | { ok: true; blocks: Block[]; truncated: string[] }
  /** `error` is for the person; `details` for the log. */
  | { ok: false; error: string; details: string };

export type ProcessedDropResult = { ok: true; result: DropResult } | { ok: false; error: string; details: string };

/** The message shown when a tool returns something that is not valid blocks. */
export function cannotShowMessage(title: string): string {
  return `${title} returned something the app can't show.`;
}

/** The message shown when a tool's result is over 1 MB. */
export function tooLargeMessage(title: string): string {
  return `${title} returned more than 1 MB, too much to show.`;
}

/**
 * Cuts `s` to `LIMITS.textChars` UTF-16 characters plus "…", never splitting a surrogate pair.
 *
 * @example
 * cutText("a".repeat(100_001)).length // 100_001 (100,000 kept + "…")
 */
export function cutText(s: string): { text: string; cut: boolean } {
  if (s.length <= LIMITS.textChars) return { text: s, cut: false };
  let end = LIMITS.textChars;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: `${s.slice(0, end)}…`, cut: true };
}

function cutBlock(block: Block, index: number, truncated: string[]): Block {
  switch (block.type) {
    case "text": {
      const { text, cut } = cutText(block.value);
      if (cut) truncated.push(`${index}.value`);
      return cut ? { ...block, value: text } : block;
    }
    case "code": {
      const { text, cut } = cutText(block.text);
      if (cut) truncated.push(`${index}.text`);
      return cut ? { ...block, text } : block;
    }
    case "table":
      if (block.rows.length <= LIMITS.tableRows) return block;
      truncated.push(`${index}.rows`);
      return { ...block, rows: block.rows.slice(0, LIMITS.tableRows) };
    case "files":
      if (block.paths.length <= LIMITS.filesPerBlock) return block;
      truncated.push(`${index}.paths`);
      return { ...block, paths: block.paths.slice(0, LIMITS.filesPerBlock) };
    default:
      return block;
  }
}

/**
 * Validates and cuts a tool's result. Accepts an array of blocks, a single block, or nothing
 * (`undefined`/`null`: no blocks). Keeps 24 blocks, 64 rows per table, 64 paths per files
 * block; cuts text and code past 100,000 characters with "…"; fails over 1,048,576 bytes of
 * JSON after cutting. Never throws.
 *
 * @example
 * processToolResult([{ type: "status", text: "Done" }], "Base64")
 * // { ok: true, blocks: [{ type: "status", text: "Done", tone: "neutral" }], truncated: [] }
 */
export function processToolResult(blocks: unknown, title: string): ProcessedToolResult {
  const list = blocks === undefined || blocks === null ? [] : Array.isArray(blocks) ? blocks : [blocks];
  const truncated: string[] = [];
  const kept = list.length > LIMITS.blocksPerResult ? list.slice(0, LIMITS.blocksPerResult) : list;
  if (kept !== list) truncated.push("blocks");
  const out: Block[] = [];
  for (let i = 0; i < kept.length; i++) {
    const parsed = safeParse(blockSchema, kept[i]);
    if (!parsed.success) {
      const subject = `block ${i}`;
      const [first = `${subject} is not valid`] = formatIssues(parsed.error.issues, subject);
      // A whole-block problem already names the block; a field problem gets it in front.
      const details = first.startsWith(subject) ? first : `${subject}: ${first}`;
      return { ok: false, error: cannotShowMessage(title), details };
    }
    out.push(cutBlock(parsed.data, i, truncated));
  }
  const bytes = jsonByteLength(out);
  if (bytes > LIMITS.resultBytes) {
    return {
      ok: false,
      error: tooLargeMessage(title),
      details: `result is ${bytes} bytes of JSON, over the ${LIMITS.resultBytes}-byte limit`,
    };
  }
  return { ok: true, blocks: out, truncated };
}

/**
 * Validates a drop's result `{message, outputs, copiedText?}` (outputs are absolute paths) and
 * fails one over 1 MB of JSON, like a run's result. Never throws.
 *
 * @example
 * processDropResult({ message: "Shrunk 2 images", outputs: ["/data/a.jpg"] }, "Shrink")
 */
export function processDropResult(result: unknown, title: string): ProcessedDropResult {
  const parsed = safeParse(dropResultSchema, result);
  if (!parsed.success) {
    const [first] = formatIssues(parsed.error.issues, "drop result");
    return { ok: false, error: cannotShowMessage(title), details: first ?? "drop result is not valid" };
  }
  const out = parsed.data;
  const bytes = jsonByteLength(out);
  if (bytes > LIMITS.resultBytes) {
    return {
      ok: false,
      error: tooLargeMessage(title),
      details: `drop result is ${bytes} bytes of JSON, over the ${LIMITS.resultBytes}-byte limit`,
    };
  }
  return { ok: true, result: out };
}
