/**
 * The page `svc-host ui` opens instead of the one-time address: 0600 in a 0700 folder, only for
 * the UI's own address, and pages whose ticket has expired are cleared. The real command with a
 * recording opener is in test/host-http/app-keys.test.ts.
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeRedirectPage } from "./redirect-page.js";
import { TICKET_TTL_MS } from "./sessions.js";

const URL_OK = `http://127.0.0.1:41234/#t=${"a".repeat(43)}`;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-redirect-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("writeRedirectPage", () => {
  it("writes a 0600 page in a 0700 folder (made private again if it was not) that sends the browser on", async () => {
    const folder = join(dir, "ui-open");
    await mkdir(folder, { mode: 0o755 });
    await chmod(folder, 0o755);
    const page = fileURLToPath(await writeRedirectPage(folder, URL_OK));
    expect(await modeOf(folder)).toBe(0o700);
    expect(await modeOf(page)).toBe(0o600);
    const html = await readFile(page, "utf8");
    expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${URL_OK}">`);
    expect(html).toContain(`<a href="${URL_OK}">open svc</a>`);
  });

  it("writes nothing for an address of another shape", async () => {
    const folder = join(dir, "ui-open");
    for (const url of ['http://127.0.0.1:41234/#t="><script>alert(1)</script>', "https://evil.example/"])
      await expect(writeRedirectPage(folder, url)).rejects.toThrow(`not a svc UI address: ${JSON.stringify(url)}`);
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses a folder that is a file, and clears pages older than a ticket's minute", async () => {
    await writeFile(join(dir, "taken"), "");
    await expect(writeRedirectPage(join(dir, "taken"), URL_OK)).rejects.toThrow();
    const folder = join(dir, "ui-open");
    const now = Date.now();
    const old = fileURLToPath(await writeRedirectPage(folder, URL_OK, now));
    const seconds = (now - TICKET_TTL_MS - 1000) / 1000;
    await utimes(old, seconds, seconds);
    const kept = fileURLToPath(await writeRedirectPage(folder, URL_OK, now));
    const fresh = fileURLToPath(await writeRedirectPage(folder, URL_OK, now));
    expect((await readdir(folder)).sort()).toEqual([kept, fresh].map((p) => p.slice(folder.length + 1)).sort());
  });
});
