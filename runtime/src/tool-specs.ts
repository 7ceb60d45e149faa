/**
 * The tools a bundle exported, checked: each raw spec is decoded by the SDK (every default
 * filled, canonical form); an invalid one is logged and left out (SPEC Errors: "invalid tool in
 * an extension's reported tools").
 */
import { decodeToolSpec, type ToolSpec } from "@svc/api";

export interface DecodedTools {
  /** Tool name → its canonical spec. */
  byName: ReadonlyMap<string, ToolSpec>;
  /** What `extension.tools` carries, in export order. */
  canonical: ToolSpec[];
}

/**
 * @example
 * const tools = decodeTools({ b64: { id: "b64", title: "Base64", icon: "textformat" } }, console.error);
 * tools.byName.get("b64")?.category // "everyday"
 */
export function decodeTools(raw: Record<string, unknown>, logError: (message: string) => void): DecodedTools {
  const byName = new Map<string, ToolSpec>();
  const canonical: ToolSpec[] = [];
  for (const [name, spec] of Object.entries(raw ?? {})) {
    const withId = typeof spec === "object" && spec !== null && !("id" in spec) ? { ...spec, id: name } : spec;
    const decoded = decodeToolSpec(withId);
    if (!decoded.ok) {
      logError(`tool "${name}" left out: ${decoded.error}`);
      continue;
    }
    if (decoded.spec.id !== name) {
      logError(`tool "${name}" left out: its id "${decoded.spec.id}" should match its name in tools`);
      continue;
    }
    byName.set(name, decoded.spec);
    canonical.push(decoded.spec);
  }
  return { byName, canonical };
}
