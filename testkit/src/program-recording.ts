/**
 * Program runs replayed from a file, for extensions that `ctx.exec` programs the test machine
 * lacks (`playerctl`, `tailscale`, `upower`) or whose output depends on the machine. Each
 * program the file names becomes a small executable in a folder of its own, and that folder is
 * the only PATH `ctx.exec` searches: the real exec fence still checks `permissions.exec`, the
 * program still runs as a process over real pipes, and a program the file does not name is
 * missing, as on a machine without it.
 *
 * The file (hand-written from each tool's documented output):
 * `{ "version": 1, "source": "where the output's shape comes from", "runs": [{ "file": "playerctl",
 * "args": ["status"], "stdout": "Playing\n", "stderr": "", "code": 0 }] }`. The same
 * arguments again get the next recorded run, then the last one again. Arguments with no
 * recorded run exit 127 and fail the test, even if the extension caught the failure.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FORMAT_VERSION = 1;

/** One recorded run of a program. */
export interface RecordedRun {
  /** The program's bare name, as in `permissions.exec`. */
  file: string;
  args: string[];
  stdout?: string;
  stderr?: string;
  /** The exit code; default 0. */
  code?: number;
}

export interface ProgramRecordingFile {
  version: number;
  /** Where the recorded output's shape comes from (a manual page, a project's docs). */
  source?: string;
  runs: RecordedRun[];
}

/**
 * What each recorded program runs: finds its run by name and arguments in `runs.json` beside
 * its folder, counts repeats in `state/`, and appends a line to `unmatched.txt` when there is
 * none. CommonJS, written without an extension into a folder with no package.json above it.
 */
const REPLAY_SCRIPT = String.raw`
const fs = require("node:fs");
const path = require("node:path");
const root = path.join(__dirname, "..");
const name = path.basename(process.argv[1]);
const args = process.argv.slice(2);
const { file, runs } = JSON.parse(fs.readFileSync(path.join(root, "runs.json"), "utf8"));
const key = JSON.stringify([name, args]);
const matches = runs.filter((run) => JSON.stringify([run.file, run.args]) === key);
if (matches.length === 0) {
  const held = [...new Set(runs.map((run) => run.file + " " + JSON.stringify(run.args)))];
  const line = "exec: " + name + " " + JSON.stringify(args) + " has no recorded run in " + file +
    "; it holds: " + (held.length ? held.slice(0, 5).join(", ") + (held.length > 5 ? ", …" : "") : "none") +
    ". Add the run, written from the program's documented output";
  fs.appendFileSync(path.join(root, "unmatched.txt"), JSON.stringify(line) + "\n");
  process.stderr.write(line + "\n");
  process.exitCode = 127;
} else {
  const counter = path.join(root, "state", Buffer.from(key).toString("hex").slice(0, 200));
  const n = fs.existsSync(counter) ? Number(fs.readFileSync(counter, "utf8")) : 0;
  fs.writeFileSync(counter, String(n + 1));
  const run = matches[Math.min(n, matches.length - 1)];
  process.stdout.write(run.stdout ?? "");
  process.stderr.write(run.stderr ?? "");
  process.exitCode = run.code ?? 0;
}
`;

/**
 * @example
 * const programs = await ProgramRecording.open("test/recordings/playing.programs.json");
 * createCapabilities({ execPath: programs.path, allowWritablePrograms: true });
 * // … after each call:
 * programs.takeFailure(); // an Error naming a run with no recording, or undefined
 * await programs.dispose();
 */
export class ProgramRecording {
  private seen = 0;

  private constructor(
    readonly file: string,
    /** The folder holding the recorded programs: give it as exec's PATH. */
    readonly path: string,
    private readonly root: string,
  ) {}

  /** Reads the file (which must exist) and writes one executable per program it names. */
  static async open(file: string): Promise<ProgramRecording> {
    const recording = parse(file, await readFile(file, "utf8"));
    const root = await mkdtemp(join(tmpdir(), "svc-testkit-programs-"));
    const bin = join(root, "bin");
    await mkdir(join(root, "state"), { recursive: true });
    await mkdir(bin);
    await writeFile(join(root, "runs.json"), JSON.stringify({ file, runs: recording.runs }));
    // The script's interpreter is this very Node, by absolute path: exec's PATH holds only `bin`.
    const script = `#!${process.execPath}\n${REPLAY_SCRIPT}`;
    for (const name of new Set(recording.runs.map((run) => run.file))) {
      await writeFile(join(bin, name), script);
      await chmod(join(bin, name), 0o755);
    }
    return new ProgramRecording(file, bin, root);
  }

  /** The first run since the last call that had no recording, as the Error to fail the test with. */
  async takeFailure(): Promise<Error | undefined> {
    const text = await readFile(join(this.root, "unmatched.txt"), "utf8").catch(() => "");
    const lines = text.split("\n").filter(Boolean);
    const fresh = lines.slice(this.seen);
    this.seen = lines.length;
    return fresh.length > 0 ? new Error(JSON.parse(fresh[0]) as string) : undefined;
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

/** The file checked: a clear error naming the file and the fix for anything else. */
function parse(file: string, text: string): ProgramRecordingFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not a program recording (not JSON: ${(error as Error).message})`);
  }
  const recording = parsed as Partial<ProgramRecordingFile> | null;
  if (recording?.version !== FORMAT_VERSION || !Array.isArray(recording.runs)) {
    throw new Error(
      `${file} is not a program recording of version ${FORMAT_VERSION}: it needs "version": 1 and "runs"`,
    );
  }
  recording.runs.forEach((run, index) => {
    const where = `${file}: runs[${index}]`;
    if (typeof run?.file !== "string" || !/^[A-Za-z0-9._+-]+$/.test(run.file) || run.file.startsWith(".")) {
      throw new Error(`${where}.file should be a program's bare name (as in permissions.exec), like "playerctl"`);
    }
    if (!Array.isArray(run.args) || !run.args.every((arg) => typeof arg === "string")) {
      throw new Error(`${where}.args should be a list of strings`);
    }
    for (const key of ["stdout", "stderr"] as const) {
      if (run[key] !== undefined && typeof run[key] !== "string") throw new Error(`${where}.${key} should be text`);
    }
    if (run.code !== undefined && (!Number.isInteger(run.code) || run.code < 0 || run.code > 255)) {
      throw new Error(`${where}.code should be an exit code from 0 to 255`);
    }
  });
  return recording as ProgramRecordingFile;
}
