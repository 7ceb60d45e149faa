/**
 * Program runs replayed (program-recording.ts) and test folders in place of real ones
 * (folder-view.ts): each recorded program is a real process on exec's only PATH, behind the
 * sandbox's real exec and file fences (fixtures/machine).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadExtension, ProgramRecording, type RecordedRun, type TestExtension } from "./index.js";
import { builtFixture, removeFixtures } from "./kit.fixtures.js";

let scratch: string;
let dir: string;
const open: { dispose(): Promise<void> }[] = [];
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "svc-programs-test-"));
  dir = await builtFixture("machine");
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((thing) => thing.dispose()));
});
afterAll(async () => {
  await removeFixtures();
  await rm(scratch, { recursive: true, force: true });
});

let files = 0;
async function recordingFile(body: unknown): Promise<string> {
  const file = join(scratch, `programs-${++files}.json`);
  await writeFile(file, typeof body === "string" ? body : JSON.stringify(body));
  return file;
}

async function recording(runs: RecordedRun[]): Promise<ProgramRecording> {
  const programs = await ProgramRecording.open(await recordingFile({ version: 1, source: "a test", runs }));
  open.push(programs);
  return programs;
}

function run(program: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(program, args, (error, stdout, stderr) =>
      resolve({ stdout, stderr, code: error ? Number((error as { code?: number }).code) : 0 }),
    );
  });
}

describe("ProgramRecording", () => {
  it("answers each run with its recorded output and exit code; the same arguments get the next run, then the last again", async () => {
    const programs = await recording([
      { file: "fakeprog", args: ["status"], stdout: "first\n" },
      { file: "fakeprog", args: ["status"], stdout: "second\n", stderr: "warned\n", code: 3 },
      { file: "fakeprog", args: ["other", "two words"], stdout: "other\n" },
    ]);
    const prog = join(programs.path, "fakeprog");
    expect(await run(prog, ["status"])).toEqual({ stdout: "first\n", stderr: "", code: 0 });
    expect(await run(prog, ["status"])).toEqual({ stdout: "second\n", stderr: "warned\n", code: 3 });
    expect(await run(prog, ["status"])).toEqual({ stdout: "second\n", stderr: "warned\n", code: 3 });
    expect(await run(prog, ["other", "two words"])).toEqual({ stdout: "other\n", stderr: "", code: 0 });
    expect(await programs.takeFailure()).toBeUndefined();
  });

  it("a run with no recording exits 127, says so on stderr, and is handed to the test once", async () => {
    const programs = await recording([{ file: "fakeprog", args: ["status"], stdout: "ok\n" }]);
    const message = `exec: fakeprog ["stats"] has no recorded run in ${programs.file}; it holds: fakeprog ["status"]. Add the run, written from the program's documented output`;
    expect(await run(join(programs.path, "fakeprog"), ["stats"])).toEqual({
      stdout: "",
      stderr: `${message}\n`,
      code: 127,
    });
    expect((await programs.takeFailure())?.message).toBe(message);
    expect(await programs.takeFailure()).toBeUndefined();
  });

  it("refuses a file that is not a program recording, naming the file and the fix", async () => {
    const open = async (body: unknown) => {
      const file = await recordingFile(body);
      return {
        file,
        error: await ProgramRecording.open(file).then(
          () => undefined,
          (e: Error) => e.message,
        ),
      };
    };
    let r = await open("{ not json");
    expect(r.error).toMatch(new RegExp(`^${r.file} is not a program recording \\(not JSON: `));
    r = await open({ version: 2, runs: [] });
    expect(r.error).toBe(`${r.file} is not a program recording of version 1: it needs "version": 1 and "runs"`);
    r = await open({ version: 1, runs: [{ file: "../bin/sh", args: [] }] });
    expect(r.error).toBe(
      `${r.file}: runs[0].file should be a program's bare name (as in permissions.exec), like "playerctl"`,
    );
    r = await open({ version: 1, runs: [{ file: "x", args: [1] }] });
    expect(r.error).toBe(`${r.file}: runs[0].args should be a list of strings`);
    r = await open({ version: 1, runs: [{ file: "x", args: [], code: 256 }] });
    expect(r.error).toBe(`${r.file}: runs[0].code should be an exit code from 0 to 255`);
    r = await open({ version: 1, runs: [{ file: "x", args: [], code: 255 }] });
    expect(r.error).toBeUndefined();
  });
});

describe("loadExtension with programs and folders", () => {
  async function load(options: Parameters<typeof loadExtension>[1]): Promise<TestExtension> {
    const ext = await loadExtension(dir, options);
    open.push(ext);
    return ext;
  }

  /** A /sys laid out as Linux lays it: class entries are symlinks into devices. */
  async function fakeSys(): Promise<{ sys: string; downloads: string }> {
    const root = await mkdtemp(join(scratch, "machine-"));
    const device = join(root, "sys/devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0");
    await mkdir(device, { recursive: true });
    await writeFile(join(device, "capacity"), "81\n");
    await mkdir(join(root, "sys/class/power_supply"), { recursive: true });
    await symlink("../../devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0", join(root, "sys/class/power_supply/BAT0"));
    await mkdir(join(root, "downloads"));
    await writeFile(join(root, "downloads", "film.mkv.part"), "");
    return { sys: join(root, "sys"), downloads: join(root, "downloads") };
  }

  it("exec finds only the recorded programs, behind the real fence; reads go to the test's folders, judged as the real ones", async () => {
    const { sys, downloads } = await fakeSys();
    const programs = await recordingFile({
      version: 1,
      runs: [{ file: "fakeprog", args: ["status"], stdout: "up\n" }],
    });
    const ext = await load({ programs, folders: { "/sys": sys, "~/Downloads": downloads } });
    await ext.run();
    const lines = ext.logs.filter((l) => l.level === "info").map((l) => l.message);
    expect(lines[0]).toBe(JSON.stringify({ stdout: "up\n", stderr: "", code: 0 }));
    expect(lines[1]).toBe(JSON.stringify(["BAT0"]));
    // As on a real machine: BAT0 leads into /sys/devices, which the manifest does not list.
    expect(lines[2]).toBe(
      'error: file access to /sys/class/power_supply/BAT0/capacity denied: "/sys/class/power_supply/BAT0/capacity" leads outside permissions.files, the data folder and the files given to this tool run (add the folder to svc.permissions.files in package.json)',
    );
    expect(lines[3]).toBe(JSON.stringify(["film.mkv.part"]));
    // A path in no replaced folder is judged as always.
    expect(lines[4]).toMatch(
      /^error: file access to \/etc\/hostname denied: "\/etc\/hostname" is outside permissions\.files/,
    );
    expect(ext.denials.map((d) => d.target)).toHaveLength(2);
  });

  it("a program run with no recording fails the test even though the extension caught it", async () => {
    const programs = await recordingFile({ version: 1, runs: [{ file: "fakeprog", args: ["status"] }] });
    const ext = await load({ programs, storage: { args: ["stats"] } });
    await expect(ext.run()).rejects.toThrow(
      `exec: fakeprog ["stats"] has no recorded run in ${programs}; it holds: fakeprog ["status"]. Add the run, written from the program's documented output`,
    );
  });

  it("a program the recording does not name is missing, as on a machine without it", async () => {
    const programs = await recordingFile({ version: 1, runs: [] });
    const ext = await load({ programs });
    await ext.run();
    expect(ext.logs.find((l) => l.level === "info")?.message).toBe('error: exec: "fakeprog" was not found on PATH');
  });

  it("the guest's default locale is the one the test gives, en-US unless told", async () => {
    const programs = await recordingFile({ version: 1, runs: [{ file: "fakeprog", args: ["status"] }] });
    const german = await load({ programs, locale: "de-DE" });
    await german.run();
    expect(german.logs.filter((l) => l.level === "info").at(-1)?.message).toBe("1.234,5");
    const plain = await load({ programs });
    await plain.run();
    expect(plain.logs.filter((l) => l.level === "info").at(-1)?.message).toBe("1,234.5");
  });

  it("refuses a replaced folder that does not exist, naming it", async () => {
    await expect(load({ folders: { "/sys": "no/such/folder" } })).rejects.toThrow(
      /^folders: "no\/such\/folder" \(for "\/sys"\) does not exist: /,
    );
  });
});
