/**
 * The page `svc-host ui` hands the browser instead of the one-time address (Jupyter's answer): a
 * command line is readable by every account on the machine (`/proc/<pid>/cmdline`, `ps`), so a
 * ticket given to `xdg-open` could be traded first by someone else. The ticket goes into a small
 * HTML file that sends the browser on, in a folder only the person can enter (0700, the file
 * 0600), and the opener is given that file's `file://` address, which holds no secret.
 */
import { chmod, lstat, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { isUiAddress } from "@svc/runtime";
import { writeFileAtomic } from "../support/index.js";
import { TICKET_TTL_MS } from "./sessions.js";

/** The folder's mode: the person's alone. */
const FOLDER_MODE = 0o700;
const PAGE = /^open-[0-9a-f]{16}\.html$/;

/** The folder, made or made private again; refused when something else (a link, a file) is there. */
async function privateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  const info = await lstat(folder);
  if (!info.isDirectory()) throw new Error(`${folder} is not a folder: remove it and run svc-host ui again`);
  if ((info.mode & 0o777) !== FOLDER_MODE) await chmod(folder, FOLDER_MODE);
}

/** Pages older than a ticket's life lead nowhere any more: remove them. */
async function removeOldPages(folder: string, now: number): Promise<void> {
  for (const name of await readdir(folder)) {
    if (!PAGE.test(name)) continue;
    const info = await lstat(join(folder, name)).catch(() => undefined);
    if (info && now - info.mtimeMs > TICKET_TTL_MS) await rm(join(folder, name), { force: true });
  }
}

/**
 * Writes a page that opens `url` (an address of the UI's own shape only) and returns the
 * page's `file://` address.
 *
 * @example
 * const page = await writeRedirectPage(support.uiOpen, "http://127.0.0.1:41234/#t=…");
 * // "file:///home/ann/.local/share/Svc/ui-open/open-3f9c….html"
 */
export async function writeRedirectPage(folder: string, url: string, now = Date.now()): Promise<string> {
  // The shape check also keeps the page's HTML inert: the address has no character HTML would read.
  if (!isUiAddress(url)) throw new Error(`not a svc UI address: ${JSON.stringify(url.slice(0, 200))}`);
  await privateFolder(folder);
  await removeOldPages(folder, now);
  const path = join(folder, `open-${randomBytes(8).toString("hex")}.html`);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=${url}">
<title>Opening svc</title>
</head>
<body>
<p>Opening svc… If nothing happens, <a href="${url}">open svc</a> (the link works once, within a minute).</p>
</body>
</html>
`;
  await writeFileAtomic(path, html, { mode: 0o600 });
  return pathToFileURL(path).href;
}
