/**
 * Finds an extension's tools the way the app does: by loading the bundle in the sandbox and
 * decoding each raw spec it exported. An invalid tool is a build failure naming the tool and
 * the field (the runtime would leave it out, SPEC.md "Errors").
 */
import { decodeToolSpec, type ToolSpec } from "@svc/api";
import type { ForwardedCalls } from "@svc/sandbox";
import { ENTRY } from "../bundle/bundle.js";
import type { CheckedManifest } from "./manifest-check.js";
import { withSandbox } from "./sandbox-session.js";

/**
 * Loading a bundle runs only its top-level code, which has no business calling the app;
 * its console output is let through silently (a build is not the place to show it).
 */
const NO_HOST: ForwardedCalls = {
  forward: async (op) => {
    if (op === "log") return null;
    throw new Error(`ctx.${op} is not available while the bundle loads`);
  },
};

/** The id a bundle loads under when the manifest is too broken to give one. */
const FALLBACK_ID = "svckit.build-check";

/**
 * @example
 * const { specs, errors } = await discoverTools(code, manifest);
 * // errors: ['tool "uuid": "title" should be at most 32 characters']
 */
export async function discoverTools(
  code: string,
  manifest?: CheckedManifest,
): Promise<{ specs: ToolSpec[]; errors: string[] }> {
  let raw: Record<string, unknown>;
  try {
    const loaded = await withSandbox(
      {
        id: manifest?.id ?? FALLBACK_ID,
        code,
        permissions: manifest?.svc.permissions ?? { network: [], files: [], exec: [] },
        forwarded: NO_HOST,
      },
      (sandbox) => sandbox.load(),
    );
    raw = loaded.tools;
  } catch (error) {
    return { specs: [], errors: [`${ENTRY}: the bundle does not load in the sandbox: ${firstLine(error)}`] };
  }
  return decodeRawTools(raw);
}

/**
 * Decodes the raw specs of a loaded bundle. A spec without `id` takes its name in `tools`;
 * one whose id differs from that name is an error (the runtime finds tools by that name).
 */
export function decodeRawTools(raw: Record<string, unknown>): { specs: ToolSpec[]; errors: string[] } {
  const specs: ToolSpec[] = [];
  const errors: string[] = [];
  for (const [name, spec] of Object.entries(raw)) {
    const withId = spec !== null && typeof spec === "object" && !("id" in spec) ? { ...spec, id: name } : spec;
    const decoded = decodeToolSpec(withId);
    if (!decoded.ok) {
      errors.push(...decoded.errors.map((error) => `tool "${name}": ${error}`));
    } else if (decoded.spec.id !== name) {
      errors.push(`tool "${name}": "id" should be "${name}", its name in tools (it is "${decoded.spec.id}")`);
    } else {
      specs.push(decoded.spec);
    }
  }
  return { specs, errors };
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
