/**
 * MCP tool names for svc's tools. MCP clients take names of 1–64 letters, digits, `_` and `-`;
 * svc's ids (`dev.svc.devtools/json`) hold dots and a slash, and one svc tool with several
 * actions becomes one MCP tool per action. A name is `<tool>_<action>` (just `<tool>` for a
 * tool with one action); when two extensions would give the same name, each gets its
 * extension's last id part in front; anything still too long or taken ends in a short hash.
 */
import { createHash } from "node:crypto";

export interface NameRequest {
  /** `<extension-id>/<tool>` */
  toolId: string;
  extensionId: string;
  tool: string;
  action: string;
  /** The tool declares more than one action. */
  several: boolean;
}

const VALID = /^[A-Za-z0-9_-]{1,64}$/;
const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "tool";
const hashOf = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 8);

function fit(name: string, key: string): string {
  return VALID.test(name) ? name : `${name.slice(0, 55)}_${hashOf(key)}`;
}

/**
 * One name per request, in order; every name fits `[A-Za-z0-9_-]{1,64}` and no two are equal.
 *
 * @example
 * mcpNames([{ toolId: "dev.svc.devtools/json", extensionId: "dev.svc.devtools", tool: "json", action: "minify", several: true }])
 * // ["json_minify"]
 */
export function mcpNames(requests: readonly NameRequest[]): string[] {
  const base = requests.map((r) => clean(r.several ? `${r.tool}_${r.action}` : r.tool));
  const count = new Map<string, number>();
  for (const name of base) count.set(name, (count.get(name) ?? 0) + 1);
  const named = requests.map((r, i) => {
    const key = `${r.toolId}#${r.action}`;
    const name = count.get(base[i])! > 1 ? `${clean(r.extensionId.split(".").pop() ?? "")}_${base[i]}` : base[i];
    return fit(name, key);
  });
  // Still the same (two extensions whose ids end alike): the hash of the full id tells them apart.
  const seen = new Map<string, number>();
  for (const name of named) seen.set(name, (seen.get(name) ?? 0) + 1);
  return named.map((name, i) =>
    seen.get(name)! > 1 ? `${name.slice(0, 55)}_${hashOf(`${requests[i].toolId}#${requests[i].action}`)}` : name,
  );
}
