/**
 * A tool's result as text for a terminal: every block in order, each string made inert first
 * (`escapeForDisplay`: an extension's text never moves the cursor or flips the reading order).
 *
 * ```
 * ✔ Valid JSON
 * {
 *   "a": 1
 * }
 * Keys     1
 * Expires  in 2h 05m  <https://example.com>
 * ■ #ff8800
 * ```
 */
import { escapeForDisplay, formatValue, type Block, type Tone } from "@svc/api";

/** Every tone but neutral is told apart by a mark, not by colour alone. */
const TONE_MARK: Record<Tone, string> = { neutral: "·", positive: "✔", warning: "!", critical: "✘" };

const line = (text: unknown) => escapeForDisplay(text);
const lines = (text: unknown) => escapeForDisplay(text, { multiline: true });

/** A colour swatch in 24-bit colour where the terminal shows colours. */
function swatch(hex: string, color: boolean): string {
  if (!color) return "■";
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `\u001b[38;2;${r};${g};${b}m■\u001b[39m`;
}

/**
 * @example
 * formatBlocks([{ type: "status", text: "Valid JSON", tone: "positive" }]) // ["✔ Valid JSON"]
 */
export function formatBlocks(blocks: readonly Block[], options: { color?: boolean; now?: number } = {}): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "status":
        out.push(`${TONE_MARK[block.tone]} ${line(block.text)}`);
        break;
      case "text":
        out.push(lines(block.value));
        break;
      case "code":
        out.push(lines(block.text));
        break;
      case "table": {
        const width = Math.min(32, Math.max(0, ...block.rows.map((row) => line(row.name).length)));
        for (const row of block.rows) {
          const value = line(formatValue(row.value, options.now));
          out.push(`${line(row.name).padEnd(width)}  ${value}${row.url ? `  <${line(row.url)}>` : ""}`);
        }
        break;
      }
      case "files":
        out.push(...block.paths.map((path) => line(path)));
        break;
      case "image":
        out.push(`image ${line(block.path)}`);
        break;
      case "color":
        out.push(`${swatch(block.hex, options.color === true)} ${line(block.hex)}`);
        break;
    }
  }
  return out;
}
