/**
 * `dist/tools.json`: the canonical spec of every tool, read by the host on discovery so tools
 * appear without starting extension code (SPEC.md runtime processing rule 5).
 * Format: a JSON array of canonical tool specs (every default spelled out), in the order the
 * extension's `tools` object lists them.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { encodeToolSpec, type ToolSpec } from "@svc/api";
import { writeFileAtomic } from "../files.js";

export const TOOLS_FILE = "dist/tools.json";

/**
 * Writes the tools file, or removes a stale one when there are no tools. Returns the part of
 * the build's summary line that describes it.
 *
 * @example
 * await updateToolsFile(dir, specs) // " and dist/tools.json (2 tools: json-format, uuid)"
 */
export async function updateToolsFile(dir: string, tools: ToolSpec[]): Promise<string> {
  const path = join(dir, TOOLS_FILE);
  if (tools.length === 0) {
    await rm(path, { force: true });
    return "; no tools";
  }
  await writeFileAtomic(
    path,
    `${JSON.stringify(
      tools.map((spec) => encodeToolSpec(spec)),
      null,
      2,
    )}\n`,
  );
  const count = tools.length === 1 ? "1 tool" : `${tools.length} tools`;
  return ` and ${TOOLS_FILE} (${count}: ${tools.map((t) => t.id).join(", ")})`;
}
