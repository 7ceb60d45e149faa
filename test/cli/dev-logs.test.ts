/**
 * `svckit dev` against the REAL svc-host (host/dist/main.js, which spawns the real runtime) in
 * a temporary SVC_HOME: with no app it says so once; when the app starts it streams the
 * extension's runtime logs — the denied fetch with its manifest fix, the dropped payload with
 * its field path, status with heap and CPU; when the app restarts (new token) it follows again.
 * Also `svckit send` once against the same real host.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../cli/src/run.js";
import { startHost, useHostWorld } from "../host/harness.js";
import { svckit } from "./harness.js";

const ID = "com.example.leaky";
const SOURCE = `import { defineExtension } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    try {
      await fetch("https://api.blocked.example/items");
    } catch (error) {
      ctx.log.info("fetch failed as expected");
    }
    // fraction must be 0..1: the runtime drops this payload and says which field.
    await ctx.emit({ key: "upload", title: "Upload", layout: "progress", data: { fraction: 2, step: "Sending" } });
  },
});
`;

// One world and one running app for both tests: the second sends to the app the first started.
const scene = useHostWorld({ perFile: true });

/** `svckit dev` in-process, its stdout lines visible while it runs. */
function startDev(dir: string) {
  const lines: string[] = [];
  const problems: string[] = [];
  const stop = new AbortController();
  const done = runCli(["dev", dir], {
    cwd: scene.world.root,
    env: { SVC_HOME: scene.world.home },
    signal: stop.signal,
    readStdin: async () => "",
    out: { info: (line) => lines.push(line), warn: (line) => problems.push(line) },
  });
  const waitForLine = async (match: (line: string) => boolean, what: string, from = 0): Promise<number> => {
    const until = Date.now() + 20_000;
    for (;;) {
      const at = lines.findIndex((line, index) => index >= from && match(line));
      if (at !== -1) return at;
      if (Date.now() > until)
        throw new Error(`no ${what} in svckit dev's output:\n${lines.join("\n")}\nstderr:\n${problems.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { lines, problems, waitForLine, stop: async () => (stop.abort(), done) };
}

describe("svckit dev with the real app", () => {
  it("waits for the app, streams denials with their fix and dropped payloads with their field path, and follows a restart", async () => {
    const dir = join(scene.world.root, "leaky");
    expect((await svckit(["new", "leaky", "--id", ID], { cwd: scene.world.root })).code).toBe(0);
    await writeFile(join(dir, "src", "index.ts"), SOURCE);

    const dev = startDev(dir);
    await dev.waitForLine((line) => line.startsWith("linked "), "link line");
    await dev.waitForLine(
      (line) =>
        line === `no app is running (no webhook.json in ${scene.world.home} yet); its logs will stream once it starts`,
      "no-app line",
    );

    scene.host = await startHost(scene.world);
    const connected = await dev.waitForLine(
      (line) => /^streaming the runtime's logs of com\.example\.leaky from the app on 127\.0\.0\.1:\d+$/.test(line),
      "connected line",
    );
    const denied = await dev.waitForLine(
      (line) =>
        / denied  fetch api\.blocked\.example: "api\.blocked\.example" is not in permissions\.network$/.test(line),
      "denial",
    );
    expect(dev.lines[denied + 1]).toBe(
      `${" ".repeat(8)} fix     add "api.blocked.example" to svc.permissions.network in package.json`,
    );
    await dev.waitForLine(
      (line) => / dropped blip com\.example\.leaky\/upload: "data\.fraction" should be at most 1$/.test(line),
      "dropped payload",
    );
    await dev.waitForLine(
      (line) => / status  heap \d+(\.\d)? (KB|MB) · cpu \d+ ms · idle$/.test(line),
      "idle status with heap and cpu",
    );
    await dev.waitForLine((line) => / info    fetch failed as expected$/.test(line), "the extension's own log line");
    // Each line is a time, a tag and the text; no colour codes when not a terminal.
    expect(dev.lines.slice(connected + 1).every((line) => !line.includes("\x1b["))).toBe(true);

    // The app restarts: a new token in webhook.json; dev says so and follows the new one.
    const before = dev.lines.length;
    await scene.host.stop();
    await dev.waitForLine(
      (line) => line === "the app stopped; its logs will stream again when it is back",
      "lost line",
      before,
    );
    scene.host = await startHost(scene.world);
    await dev.waitForLine(
      (line) => line.startsWith("streaming the runtime's logs of com.example.leaky"),
      "reconnected line",
      before,
    );
    await dev.waitForLine(
      (line) => / denied  fetch api\.blocked\.example/.test(line),
      "the denial after the restart",
      before,
    );

    const result = await dev.stop();
    expect(result).toBe(0);
    expect(dev.lines.at(-1)).toBe(`removed ${join(scene.world.home, "Extensions", ID)}`);
    // Said once while no app ran, not at every retry.
    expect(dev.lines.filter((line) => line.startsWith("no app is running")).length).toBe(1);
  }, 90_000);

  it("svckit send reaches the real app: 200 with the id and seq, and the app's own 400", async () => {
    const host = scene.host!;
    await writeFile(
      join(scene.world.root, "deploy.json"),
      JSON.stringify({ title: "Deploy", layout: "progress", data: { fraction: 0.5, step: "Tests" } }),
    );
    const from = host.events.length;
    const sent = await svckit(["send", "deploy.json"], { cwd: scene.world.root, env: { SVC_HOME: scene.world.home } });
    expect(sent).toMatchObject({ code: 0, stdout: "sent webhook/deploy (seq 1)" });
    await host.waitFor((event) => event.type === "blip" && event.id === "webhook/deploy", { from });

    await writeFile(
      join(scene.world.root, "bad.json"),
      JSON.stringify([
        { title: "A", layout: "progress", data: { fraction: 0.1, step: "x" } },
        { title: "B", layout: "progress", data: { fraction: "half", step: "x" } },
      ]),
    );
    const refused = await svckit(["send", "bad.json"], { cwd: scene.world.root, env: { SVC_HOME: scene.world.home } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'the app rejected the payload: invalid payload at [1]: "data.fraction" should be a number',
    );
  });
});
