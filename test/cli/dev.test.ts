/**
 * `svckit dev`: the watch build rewrites dist/ and dist/tools.json on every save, prints a
 * broken save's problems without stopping, and keeps a dev link in <SVC_HOME>/Extensions.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SVCKIT_BIN, svckit, tempFolder, type Outcome } from "./harness.js";
import { STAT_SOURCE, writeFixture } from "./fixtures.js";

let folder: { dir: string; remove(): Promise<void> };
let ext: string;
let home: string;
beforeAll(async () => {
  folder = await tempFolder("svckit-dev-");
  ext = join(folder.dir, "ext");
  home = join(folder.dir, "home");
  await writeFixture(ext);
});
afterAll(() => folder.remove());

/** Polls until `check` passes or 10 s go by. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const TOOL_SOURCE = STAT_SOURCE.replace(
  "export default defineExtension({",
  `import { tool, status } from "@svc/api";
export default defineExtension({
  tools: { ping: tool({ id: "ping", title: "Ping", icon: "dot.radiowaves.left.and.right", run: () => [status("pong")] }) },`,
);

describe("svckit dev", () => {
  it("links, rebuilds on each save (tools.json too), survives a broken save, and unlinks on stop", async () => {
    const stop = new AbortController();
    const link = join(home, "Extensions", "com.example.fixture");
    const lines = { stdout: [] as string[], stderr: [] as string[] };
    const stderrSoFar = () => lines.stderr.join("\n");
    const running: Promise<Outcome> = svckit(["dev", ext], {
      cwd: folder.dir,
      env: { SVC_HOME: home },
      signal: stop.signal,
      lines,
    });

    await eventually(() => existsSync(link), "the dev link");
    expect(await readlink(link)).toBe(ext);
    expect(existsSync(join(ext, "dist", "index.js"))).toBe(true);
    expect(existsSync(join(ext, "dist", "tools.json"))).toBe(false);

    await writeFile(join(ext, "src", "index.ts"), TOOL_SOURCE);
    await eventually(() => existsSync(join(ext, "dist", "tools.json")), "dist/tools.json");
    const tools = JSON.parse(await readFile(join(ext, "dist", "tools.json"), "utf8"));
    expect(tools.map((t: { id: string }) => t.id)).toEqual(["ping"]);

    await writeFile(join(ext, "src", "index.ts"), TOOL_SOURCE.replace('title: "Ping"', 'title: ""'));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The broken save changed nothing on disk.
    expect(JSON.parse(await readFile(join(ext, "dist", "tools.json"), "utf8"))[0].title).toBe("Ping");

    await writeFile(join(ext, "src", "index.ts"), STAT_SOURCE);
    await eventually(() => !existsSync(join(ext, "dist", "tools.json")), "the stale tools.json to go");

    // A save in place: the file is empty for a moment, then written. The empty moment is no bundle.
    const bundle = await readFile(join(ext, "dist", "index.js"), "utf8");
    await writeFile(join(ext, "src", "index.ts"), "");
    await eventually(() => stderrSoFar().includes("src/index.ts is empty"), "the empty save");
    expect(await readFile(join(ext, "dist", "index.js"), "utf8")).toBe(bundle);
    await writeFile(join(ext, "src", "index.ts"), STAT_SOURCE);

    stop.abort();
    const result = await running;
    expect(result.code).toBe(0);
    expect(existsSync(link)).toBe(false);
    expect(result.stderr).toContain('tool "ping": "title" should not be empty');
    expect(result.stderr).toContain("(still watching: fix and save to rebuild)");
    const printed = result.stdout.split("\n");
    expect(printed).toContain(`linked ${link} → ${ext}`);
    expect(printed.filter((line) => /^\d\d:\d\d:\d\d built dist\/index\.js/.test(line)).length).toBeGreaterThanOrEqual(
      3,
    );
    // No app runs in this test: said once, and dev goes on watching.
    expect(printed.filter((line) => line.startsWith("no app is running"))).toEqual([
      `no app is running (no webhook.json in ${home} yet); its logs will stream once it starts`,
    ]);
    expect(printed.at(-1)).toBe(`removed ${link}`);
  });

  it("says when another svckit dev took its link over, and leaves that link alone when it stops", async () => {
    const takeoverHome = join(folder.dir, "home-takeover");
    const link = join(takeoverHome, "Extensions", "com.example.fixture");
    const other = join(folder.dir, "other");
    await writeFixture(other);
    const first = { stdout: [] as string[], stderr: [] as string[] };
    const stopFirst = new AbortController();
    const running = svckit(["dev", ext], {
      cwd: folder.dir,
      env: { SVC_HOME: takeoverHome },
      signal: stopFirst.signal,
      lines: first,
    });
    await eventually(() => first.stdout.some((line) => line.startsWith("watching for changes")), "the first dev");
    const stopSecond = new AbortController();
    const second = svckit(["dev", other], {
      cwd: folder.dir,
      env: { SVC_HOME: takeoverHome },
      signal: stopSecond.signal,
    });
    const notice = `${link} no longer links here: it is now ${other}. Saves here no longer reach the app; restart svckit dev to link this folder again.`;
    await eventually(() => first.stderr.includes(notice), "the first dev to notice");
    stopFirst.abort();
    expect((await running).code).toBe(0);
    expect(await readlink(link)).toBe(other);
    stopSecond.abort();
    expect((await second).stderr).toContain(`replaced the dev link to ${ext}`);
  });

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`removes its link when ended by ${signal}, as with Ctrl-C`, async () => {
      const signalHome = join(folder.dir, `home-${signal}`);
      const link = join(signalHome, "Extensions", "com.example.fixture");
      const child = spawn(process.execPath, [SVCKIT_BIN, "dev", ext], {
        cwd: folder.dir,
        env: { PATH: process.env.PATH ?? "", HOME: folder.dir, SVC_HOME: signalHome },
      });
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      await eventually(() => stdout.includes("watching for changes"), "dev to be watching");
      expect(existsSync(link)).toBe(true);
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(existsSync(link)).toBe(false);
      expect(stdout.trimEnd().split("\n").at(-1)).toBe(`removed ${link}`);
    });
  }
});
