/**
 * Checks package.json's manifest with the SDK's `parseManifest`. Every problem names its field
 * path, one line each (`package.json: "svc.interval" should be at least 10s`); a key the
 * manifest does not know is one too, with the key that was likely meant. A mistake in
 * the `svc.oauth` block is a warning, never a failure (SPEC.md, OAuth rule 5: it never hides
 * the extension); the SDK leaves the broken provider out, as the app does.
 */
import { needsRunAnyCommand, parseManifest, type SvcManifest } from "@svc/api";
import { unknownManifestKeys } from "./unknown-keys.js";

export interface CheckedManifest {
  id: string;
  name: string;
  version: string;
  svc: SvcManifest;
}

export interface ManifestCheck {
  errors: string[];
  warnings: string[];
  /** Present when the manifest (oauth aside) is valid. */
  manifest?: CheckedManifest;
}

/**
 * @example
 * checkManifest(JSON.parse(packageJsonText))
 * // { errors: ['package.json: "svc.interval" should be at least 10s'], warnings: [] }
 */
export function checkManifest(packageJson: unknown): ManifestCheck {
  const parsed = parseManifest(packageJson);
  const unknown = unknownManifestKeys(packageJson);
  if (!parsed.ok)
    return { errors: [...parsed.errors.map((line) => `package.json: ${line}`), ...unknown], warnings: [] };
  // A misspelt key would silently do nothing in the app: the build stops on it.
  if (unknown.length > 0) return { errors: unknown, warnings: [] };
  // The SDK names OAuth fields from `svc`; svckit names every field from the top of package.json.
  const warnings = parsed.oauthProblems.map(
    (line) => `package.json: ${line.replace(/^"oauth/, '"svc.oauth')} (sign-in will not work until this is fixed)`,
  );
  const { name, version, svc } = parsed.manifest;
  // The runtime refuses these when run; say so at build time, with the one fix.
  svc.permissions.exec.forEach((program, index) => {
    const why = needsRunAnyCommand(program);
    if (why && !svc.permissions.runAnyCommand) {
      warnings.push(
        `package.json: "svc.permissions.exec.${index}" ${program} ${why === "runs programs" ? "runs other programs" : "writes files anywhere"}, so ctx.exec will refuse it; add "runAnyCommand": true to svc.permissions only if the extension must run any command (the install prompt says so)`,
      );
    }
  });
  return { errors: [], warnings, manifest: { id: svc.id, name, version, svc } };
}
