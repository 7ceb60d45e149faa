/**
 * Staged updates: an update that gains anything (reach, OAuth scopes or addresses, tools) is not
 * applied by `svc-host install` or "check for updates". Its `.svc` is kept in
 * `<support>/Staged/<id>.svc`, outside `Extensions/`, so the installed version keeps running
 * untouched; `svc-host accept <id>` (or the page's "Review update…") installs it from there after
 * the person has seen the diff again, with every check run again. `<id>.json` beside it names
 * its version for Settings (only a label: the review reads the package itself).
 */
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../support/index.js";

/** Where the staged update of `id` is kept. */
export function stagedPath(supportDir: string, id: string): string {
  return join(supportDir, "Staged", `${id}.svc`);
}

/** True when an update of `id` waits for the person's accept. */
export async function hasStaged(supportDir: string, id: string): Promise<boolean> {
  return (await stat(stagedPath(supportDir, id)).catch(() => undefined))?.isFile() === true;
}

/** Keeps a copy of `file` as the staged update of `id` (replacing an older staged one), atomically. */
export async function stagePackage(file: string, supportDir: string, id: string, label: StagedLabel): Promise<string> {
  const path = stagedPath(supportDir, id);
  await writeFileAtomic(path, await readFile(file), { mode: 0o600 });
  await writeFileAtomic(labelPath(supportDir, id), `${JSON.stringify(label)}\n`, { mode: 0o600 });
  return path;
}

/** Why an update waits: it can do more, or it is not signed by the pinned key ("check for updates"). */
export interface StagedLabel {
  version: string;
  because: "more" | "key";
}

function labelPath(supportDir: string, id: string): string {
  return join(supportDir, "Staged", `${id}.json`);
}

/** The update of `id` waiting for the person, when one is staged (version "" when its label is unreadable). */
export async function stagedLabel(supportDir: string, id: string): Promise<StagedLabel | undefined> {
  if (!(await hasStaged(supportDir, id))) return undefined;
  const text = await readFile(labelPath(supportDir, id), "utf8").catch(() => "");
  try {
    const label = JSON.parse(text) as Partial<StagedLabel>;
    return {
      version: typeof label.version === "string" ? label.version : "",
      because: label.because === "key" ? "key" : "more",
    };
  } catch {
    return { version: "", because: "more" }; // staged all the same: the review says what it is
  }
}

/** Forgets the staged update of `id` (applied, or the extension uninstalled). */
export async function dropStaged(supportDir: string, id: string): Promise<void> {
  await rm(stagedPath(supportDir, id), { force: true });
  await rm(labelPath(supportDir, id), { force: true });
}
