/**
 * README.md's "Five minutes to your first extension", walked as printed: its shell lines are
 * read from the README itself and run by bash in a fresh HOME (so the support folder is a
 * temp one), against the real svc-host, with the clone's node_modules/.bin on PATH exactly as
 * the README says. If the README and the product disagree, this fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBlip } from "../../host/src/display/format-blip.js";
import { REPO } from "./harness.js";

/** The shell blocks of the tutorial section, as lists of command lines (comments kept: bash ignores them). */
async function tutorialBlocks(): Promise<string[][]> {
  const readme = await readFile(join(REPO, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## Five minutes to your first extension"),
    readme.indexOf("\n## ", readme.indexOf("## Five minutes") + 5),
  );
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!.trim().split("\n"));
}

let home: string;
let host: ChildProcess | undefined;
const events: Array<Record<string, any>> = [];
const children: ChildProcess[] = [];

function env(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: home, SVC_PORT: "0", NO_COLOR: "1" };
}

function bash(script: string, input = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("bash", ["-c", script], { cwd: REPO, env: env() });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

async function until<T>(find: () => T | undefined, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "svc-tutorial-"));
  // `npm start` in the first terminal: svc-host, here with one JSON event per line to read.
  host = spawn(process.execPath, [join(REPO, "host", "dist", "main.js")], {
    env: { ...env(), SVC_HOST_OUTPUT: "json" },
  });
  let buffered = "";
  host.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line));
  });
  await until(() => events.find((e) => e.type === "watching" && e.what === "extensions"), "svc-host to start");
});

afterAll(async () => {
  for (const child of [...children, host]) {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  await rm(home, { recursive: true, force: true });
});

describe("the README tutorial, as printed", { timeout: 240_000 }, () => {
  it("scaffolds, validates, runs in dev with one reload per save, and pushes blips", async () => {
    const [first, second, third] = await tutorialBlocks();
    expect(first![0]).toMatch(/^export PATH="\$PWD\/node_modules\/\.bin:\$PATH"/);
    const devLine = first!.findIndex((line) => line.startsWith("svckit dev"));
    expect(devLine).toBeGreaterThan(0);

    // Up to `svckit validate`, in a terminal opened in the clone.
    const setup = await bash(first!.slice(0, devLine).join("\n"));
    expect(setup.stderr).toBe("");
    expect(setup.code).toBe(0);
    // svckit new's hints name the svckit on PATH, never npx.
    expect(setup.stdout).toContain("Next:\n  cd my-deploys\n  svckit validate");
    expect(setup.stdout).not.toContain("npx");
    expect(setup.stdout.trimEnd().split("\n").at(-1)).toBe("valid");
    const project = join(home, "my-deploys");

    // `svckit dev`, left running (here: until SIGTERM).
    const dev = spawn(
      "bash",
      [
        "-c",
        `${first![0]}\n${first!
          .slice(1, devLine)
          .filter((line) => line.startsWith("cd "))
          .join("\n")}\nexec ${first![devLine]}`,
      ],
      { cwd: REPO, env: env() },
    );
    children.push(dev);
    let devOut = "";
    dev.stdout.on("data", (chunk) => (devOut += chunk));
    await until(() => (devOut.includes("watching for changes") ? true : undefined), "svckit dev to watch");

    // "The first terminal now shows ▶ Deploying web (sample) with a progress bar, how far it is and the stage it is
    // at."
    const shown = await until(
      () => events.find((e) => e.type === "blip" && e.blip?.title === "Deploying web (sample)"),
      "the deploy blip",
    );
    // The line the README quotes is the terminal's own line for this blip (its figures vary with the minute).
    const readme = await readFile(join(REPO, "README.md"), "utf8");
    const quoted = /The first terminal now shows a line like `([^`]+)`/.exec(readme)?.[1];
    const lineShape = /^▶ \[My Deploys\] Deploying web \(sample\) {2}[▓░]{10} \d{1,3}% \w+$/;
    expect(quoted).toMatch(lineShape);
    const running = await until(
      () =>
        events.find(
          (e) => e.type === "blip" && e.blip?.title === "Deploying web (sample)" && e.blip.state === "running",
        ),
      "a running sample deploy",
      75_000,
    );
    expect(formatBlip(running.blip, Date.now())).toMatch(lineShape);
    // The sample moves a stage a minute and ends one minute in every cycle: running, or just done.
    expect(shown.blip).toMatchObject({
      layout: "progress",
      state: expect.stringMatching(/^(running|success)$/),
      data: { step: expect.any(String), stages: expect.any(Array) },
    });

    // The sample ends its deploy one minute in every cycle, and an ended blip stays ended; so the
    // edit below is made while a deploy runs (at most a minute's wait, in that one minute).
    await until(
      () =>
        events.find(
          (e) => e.type === "blip" && e.blip?.title === "Deploying web (sample)" && e.blip.state === "running",
        ),
      "a running sample deploy",
      75_000,
    );

    // Change the title, save: one reload, with the new bundle.
    const from = events.length;
    const source = join(project, "src", "index.ts");
    await writeFile(
      source,
      (await readFile(source, "utf8")).replace("`Deploying ${deploy.service}`", "`Shipping ${deploy.service}`"),
    );
    await until(
      () => events.slice(from).find((e) => e.type === "blip" && e.blip?.title === "Shipping web (sample)"),
      "the new title",
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      events.slice(from).filter((e) => e.type === "extension.loaded" && e.id === "com.example.my-deploys"),
    ).toEqual([{ type: "extension.loaded", id: "com.example.my-deploys", reason: "reloaded" }]);

    dev.kill("SIGTERM");
    await new Promise((resolve) => dev.once("exit", resolve));
    expect(existsSync(join(home, ".local", "share", "Svc", "Extensions", "com.example.my-deploys"))).toBe(false);

    // Pushing blips without an extension, from the same terminal.
    const pushed = await bash([first![0], ...second!].join("\n"));
    expect(pushed.code).toBe(0);
    await until(() => events.find((e) => e.type === "blip" && e.id === "webhook/coffee-is-ready"), "the pushed blip");
    await until(
      () => events.find((e) => e.type === "blip" && e.id === "webhook/deploy-api" && e.blip?.layout === "session"),
      "svc-hook's blip",
    );

    // Sharing it: svckit pack, then svc-host install as whoever receives it runs it, word for word.
    const shared = await bash([first![0], "cd ~/my-deploys", ...third!].join("\n"));
    expect(existsSync(join(project, "my-deploys-0.1.0.svc"))).toBe(true);
    // No terminal here to ask on: the review is shown, and nothing is installed without --yes.
    expect(shared.stdout).toContain("my-deploys-0.1.0.svc");
    expect(shared.stderr).toContain("not installed: stdin is not a terminal to ask on; run again with --yes to agree");
    expect(shared.code).toBe(1);
    const installLine = third!
      .find((line) => line.startsWith("svc-host install"))!
      .split("#")[0]!
      .trim();
    const beforeInstall = events.length;
    const agreed = await bash([first![0], "cd ~/my-deploys", `${installLine} --yes`].join("\n"));
    expect(agreed.code).toBe(0);
    await until(
      () => events.slice(beforeInstall).find((e) => e.type === "extension.loaded" && e.id === "com.example.my-deploys"),
      "the installed extension to load",
    );
    expect(
      existsSync(join(home, ".local", "share", "Svc", "Extensions", "com.example.my-deploys", "package.json")),
    ).toBe(true);

    // "The template reads sample data until you set its API URL option (svc-host set …)": once set,
    // the sample deploy leaves the notch (the address as printed is no API: the run then fails).
    const readmeText = await readFile(join(REPO, "README.md"), "utf8");
    const setLine = /\(`(svc-host set com\.example\.my-deploys apiUrl [^`]+)`\)/.exec(readmeText)?.[1];
    expect(setLine).toBeDefined();
    const sample = await until(
      () =>
        events
          .slice(beforeInstall)
          .find(
            (e) =>
              e.type === "blip" && e.change === "update" && e.id.startsWith("com.example.my-deploys/deploy-sample-"),
          ),
      "the installed extension's sample deploy",
    );
    const beforeSet = events.length;
    const set = await bash([first![0], setLine!].join("\n"));
    expect(set.code).toBe(0);
    await until(
      () => events.slice(beforeSet).find((e) => e.type === "blip" && e.change === "remove" && e.id === sample.id),
      "the sample deploy to leave",
    );
  });
});
