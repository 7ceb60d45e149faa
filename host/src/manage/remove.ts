/**
 * Forgetting an extension: its folder in `Extensions/` (only the link, for one `svckit dev`
 * made), `Data/<id>/`, `Preferences/<id>.json`, its compiled code, its entry in
 * `disabled.json`, its approval in the permission ledger, its tools' switches for AI agents, and
 * every secret under its service (`svc.<id>`: secrets, password options, sign-in tokens). Each
 * part is tried; what could not be removed is reported, never hidden. So a later package with the
 * same id starts from nothing: no approval, no switch.
 */
import { lstat, readdir, rm, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { compiledCodeDir } from "@svc/runtime";
import { preferenceFile, preferencesFolder } from "../preferences/index.js";
import { serviceFor, type SecretStore } from "../secrets/index.js";
import { setDisabled, type SupportPaths } from "../support/index.js";
import { ManageError, type UninstallReport } from "./types.js";
import type { Ledger } from "../ledger/index.js";
import type { AgentSwitches } from "../tools/agent-switches.js";

export interface RemoveOptions {
  support: SupportPaths;
  id: string;
  /** The extension's folder as discovery found it: must be an entry of `Extensions/`. */
  folder: string;
  secrets: SecretStore;
  /** The permission ledger: the extension's approval is forgotten. */
  ledger: Pick<Ledger, "forget" | "file">;
  /** The switches for AI agents: the extension's are turned off. */
  switches: Pick<AgentSwitches, "clearExtension">;
}

/** One path segment that names nothing but itself (no `..`, no separators, no hidden name). */
function isPlainName(id: string): boolean {
  return id.length > 0 && basename(id) === id && !id.startsWith(".") && !/[\\/]/.test(id);
}

/** `<id>.<sha-256 hex>.qjsc`: the compiled forms of this id, not of an id it is a prefix of. */
function isCompiledFormOf(id: string, name: string): boolean {
  return name.startsWith(`${id}.`) && /^[0-9a-f]{64}\.qjsc$/.test(name.slice(id.length + 1));
}

/**
 * @example
 * const report = await removeExtension({ support, id: "com.example.ci", folder: join(support.extensions, "com.example.ci"), secrets });
 * report.removed; // [".../Extensions/com.example.ci", ".../Data/com.example.ci", …]
 */
export async function removeExtension(options: RemoveOptions): Promise<UninstallReport> {
  const { support, id, folder, secrets, ledger, switches } = options;
  if (!isPlainName(id)) throw new ManageError(`cannot uninstall ${JSON.stringify(id)}: not an extension id`, "invalid");
  if (resolve(dirname(folder)) !== resolve(support.extensions)) {
    throw new ManageError(
      `${id} is not installed in ${support.extensions}; only extensions there can be uninstalled`,
      "not-allowed",
    );
  }
  const report: UninstallReport = { id, removed: [], secrets: [], problems: [] };
  const attempt = async (what: string, remove: () => Promise<boolean>) => {
    try {
      if (await remove()) report.removed.push(what);
    } catch (error) {
      report.problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  const removePath = (path: string) =>
    attempt(path, async () => {
      const info = await lstat(path).catch(() => undefined);
      if (!info) return false;
      // A link (svckit dev's) goes; the author's folder it points to stays.
      if (info.isSymbolicLink()) await unlink(path);
      else await rm(path, { recursive: true, force: true });
      return true;
    });

  await removePath(folder);
  await removePath(join(support.data, id));
  await removePath(preferenceFile(preferencesFolder(support.root), id));
  const compiled = compiledCodeDir(support.data);
  const forms = await readdir(compiled).catch(() => [] as string[]);
  for (const name of forms.filter((entry) => isCompiledFormOf(id, entry))) await removePath(join(compiled, name));
  await attempt(support.disabledFile, async () => {
    await setDisabled(support.disabledFile, id, false);
    return false;
  });

  await attempt(`its approval in ${ledger.file}`, () => ledger.forget(id));
  await attempt(`its tools' switches for AI agents`, async () => (await switches.clearExtension(id)).length > 0);

  const service = serviceFor(id);
  try {
    for (const account of await secrets.accounts(service)) {
      await secrets.delete(service, account);
      report.secrets.push(account);
    }
  } catch (error) {
    report.problems.push(`its secrets (${service}) were not removed: ${(error as Error).message}`);
  }
  return report;
}
