/**
 * What `svc-hook start` remembers for later `step` calls, which carry only the id: the title,
 * icon and start time. One small file per blip in `<support>/hook/`, so hooks running at the
 * same time for different blips never write the same file.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../support/atomic-file.js";

export interface StartedBlip {
  title: string;
  icon?: string;
  /** ISO 8601 */
  startedAt: string;
}

function fileFor(dir: string, id: string): string {
  return join(dir, `${encodeURIComponent(id)}.json`);
}

/** @example await rememberStart(paths.hookState, "webhook/deploy-api", { title: "Deploy api", startedAt }) */
export async function rememberStart(dir: string, id: string, started: StartedBlip): Promise<void> {
  await writeFileAtomic(fileFor(dir, id), JSON.stringify(started));
}

/** What `start` remembered about `id`, or undefined (never started here, or unreadable). */
export async function recallStart(dir: string, id: string): Promise<StartedBlip | undefined> {
  try {
    const value = JSON.parse(await readFile(fileFor(dir, id), "utf8")) as Partial<StartedBlip>;
    if (typeof value.title !== "string" || typeof value.startedAt !== "string") return undefined;
    return {
      title: value.title,
      startedAt: value.startedAt,
      ...(typeof value.icon === "string" ? { icon: value.icon } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Forgets `id` after `end` or `remove`. */
export async function forgetStart(dir: string, id: string): Promise<void> {
  await rm(fileFor(dir, id), { force: true });
}

/**
 * A title for a blip `start` never saw, from its key.
 *
 * @example
 * titleFromId("webhook/deploy-api") // "Deploy api"
 */
export function titleFromId(id: string): string {
  const key =
    id
      .slice(id.lastIndexOf("/") + 1)
      .replace(/[-_]+/g, " ")
      .trim() || id;
  return key.charAt(0).toUpperCase() + key.slice(1);
}
