/**
 * Turns what the host knows (or, with svc stopped, what discovery finds on disk) into the
 * list a person reads: one `ExtensionInfo` per extension found, broken and overridden ones too.
 */
import { lstat } from "node:fs/promises";
import type { Manifest } from "@svc/api";
import type { DiscoveredExtension } from "../discovery/index.js";
import type { ExtensionInfo, ExtensionSetSnapshot, ExtensionOrigin, ExtensionStatus, OptionInfo } from "./types.js";

const RUNTIME_STATUSES: ReadonlySet<string> = new Set(["loaded", "running", "idle", "crashed"]);

/** `dev` for a link in the user folder (what `svckit dev` makes), else where it was found. */
async function originOf(ext: DiscoveredExtension): Promise<ExtensionOrigin> {
  if (ext.source === "bundled") return "bundled";
  const info = await lstat(ext.folder).catch(() => undefined);
  return info?.isSymbolicLink() ? "dev" : "user";
}

/** The declared options, without any value. */
export function optionsOf(manifest: Manifest | undefined): OptionInfo[] {
  return (manifest?.svc.preferences ?? []).map((p) => ({
    name: p.name,
    title: p.title,
    type: p.type,
    required: p.required === true,
    ...(p.type === "dropdown" ? { choices: p.data.map((choice) => choice.value) } : {}),
  }));
}

/**
 * @param running false when svc is not running: every loadable extension is `stopped`.
 * @example
 * await describeExtensions(extensions.snapshot(), true); // [{ id: "dev.svc.focus", status: "idle", … }]
 */
export async function describeExtensions(snapshot: ExtensionSetSnapshot, running: boolean): Promise<ExtensionInfo[]> {
  const { catalog, disabled, loaded, statuses, problems, held } = snapshot;
  const describe = async (
    ext: DiscoveredExtension,
    found: "active" | "broken" | "overridden",
  ): Promise<ExtensionInfo> => {
    const enabled = !disabled.has(ext.id);
    const runtime = statuses.get(ext.id);
    const problem =
      ext.error ??
      problems.get(ext.id) ??
      runtime?.error ??
      (ext.toolErrors.length ? ext.toolErrors.join("; ") : undefined);
    let status: ExtensionStatus;
    if (found !== "active") status = found;
    else if (!enabled) status = "disabled";
    else if (held.has(ext.id)) status = "changed";
    else if (!running) status = "stopped";
    else if (runtime && RUNTIME_STATUSES.has(runtime.status)) status = runtime.status as ExtensionStatus;
    else status = loaded.has(ext.id) && !problems.has(ext.id) ? "loading" : "error";
    return {
      id: ext.id,
      ...(ext.manifest ? { title: ext.manifest.svc.title, version: ext.manifest.version } : {}),
      origin: await originOf(ext),
      folder: ext.folder,
      enabled,
      status,
      tools: found === "active" ? snapshot.toolsOf(ext.id) : ext.tools.map((tool) => tool.id),
      ...(problem === undefined ? {} : { error: problem }),
      options: optionsOf(ext.manifest),
    };
  };
  const all = await Promise.all([
    ...catalog.active.map((ext) => describe(ext, "active")),
    ...catalog.broken.map((ext) => describe(ext, "broken")),
    ...catalog.overridden.map((ext) => describe(ext, "overridden")),
  ]);
  return all.sort((a, b) => a.id.localeCompare(b.id) || a.origin.localeCompare(b.origin));
}

/** The extension a person means by `id`: the winning one, else a broken one of the user's. */
export function findExtension(
  snapshot: ExtensionSetSnapshot,
  id: string,
): { ext: DiscoveredExtension; active: boolean } | undefined {
  const active = snapshot.catalog.active.find((ext) => ext.id === id);
  if (active) return { ext: active, active: true };
  const broken = snapshot.catalog.broken.find((ext) => ext.id === id);
  return broken ? { ext: broken, active: false } : undefined;
}
