/**
 * Reads one extension folder: `package.json` checked with the SDK's manifest schema,
 * `dist/index.js` present, `dist/tools.json` decoded. Never throws: every problem becomes the
 * extension's `error` (or a `toolErrors` line) so the host lists it and carries on.
 */
import { readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { decodeToolSpec, parseManifest, type ToolSpec } from "@svc/api";
import type { DiscoveredExtension, ExtensionSource } from "./types.js";

/** The bundled code every extension folder must hold (DESIGN.md "Extension module contract"). */
export const CODE_FILE = join("dist", "index.js");
export const TOOLS_FILE = join("dist", "tools.json");

/** Bigger manifests or tool files than this are refused rather than parsed. */
const MAX_JSON_BYTES = 1024 * 1024;

async function readJson(path: string): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  try {
    const info = await stat(path);
    if (info.size > MAX_JSON_BYTES) return { ok: false, error: `is over ${MAX_JSON_BYTES / 1024} KB` };
    const text = await readFile(path, "utf8");
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, error: "is missing" };
    if (error instanceof SyntaxError) return { ok: false, error: `is not JSON: ${error.message}` };
    return { ok: false, error: `cannot be read: ${(error as Error).message}` };
  }
}

/**
 * `dist/tools.json` (a JSON array of tool specs) decoded spec by spec; a missing file means no tools.
 *
 * @example
 * await readTools("/ext") // { tools: [{ id: "uuid", … }], errors: [] }
 */
export async function readTools(folder: string): Promise<{ tools: ToolSpec[]; errors: string[] }> {
  const read = await readJson(join(folder, TOOLS_FILE));
  if (!read.ok)
    return read.error === "is missing"
      ? { tools: [], errors: [] }
      : { tools: [], errors: [`dist/tools.json ${read.error}`] };
  if (!Array.isArray(read.value)) return { tools: [], errors: ["dist/tools.json should be an array of tool specs"] };
  const tools: ToolSpec[] = [];
  const errors: string[] = [];
  read.value.forEach((raw, index) => {
    const decoded = decodeToolSpec(raw);
    if (decoded.ok) tools.push(decoded.spec);
    else errors.push(`dist/tools.json [${index}]: ${decoded.error}`);
  });
  return { tools, errors };
}

/**
 * Reads one extension folder.
 *
 * @example
 * const ext = await readExtensionFolder("/Users/me/Library/Application Support/Svc/Extensions/weather", "user");
 * if (ext.error) console.log(`${ext.id}: ${ext.error}`);
 */
export async function readExtensionFolder(folder: string, source: ExtensionSource): Promise<DiscoveredExtension> {
  const broken = (error: string, id = basename(folder)): DiscoveredExtension => ({
    id,
    folder,
    source,
    error,
    tools: [],
    toolErrors: [],
  });
  const read = await readJson(join(folder, "package.json"));
  if (!read.ok) return broken(`package.json ${read.error}`);
  const parsed = parseManifest(read.value);
  if (!parsed.ok) {
    const lines = parsed.errors;
    const idGuess = (read.value as { svc?: { id?: unknown } } | null)?.svc?.id;
    return broken(
      `package.json: ${lines.slice(0, 3).join("; ")}`,
      typeof idGuess === "string" && idGuess ? idGuess : basename(folder),
    );
  }
  // OAuth rule 5: a mistake in the `oauth` block is shown, never hides the extension.
  const { manifest, oauthProblems } = parsed;
  const id = manifest.svc.id;
  try {
    if (!(await stat(join(folder, CODE_FILE))).isFile()) return broken(`${CODE_FILE} is not a file`, id);
  } catch {
    return broken(`${CODE_FILE} is missing: build the extension with \`svckit build\``, id);
  }
  const { tools, errors } = await readTools(folder);
  return { id, folder, source, manifest, oauthProblems, tools, toolErrors: errors };
}
