/**
 * `svckit tool list`, `svckit tool run` and `svckit tool drop` against the REAL svc-host and
 * runtime (the tool fixture of test/host-tools), reading webhook.json on every run.
 */
import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHostWorld } from "../host/harness.js";
import { TOOLS_ID } from "../host-tools/fixture.js";
import { startToolHost } from "../host-tools/harness.js";
import { svckit, svckitProcess } from "./harness.js";

const scene = useHostWorld({ perFile: true });
const tool = (...words: string[]) =>
  svckit(["tool", ...words], { cwd: scene.world.root, env: { SVC_HOME: scene.world.home } });

describe("svckit tool", () => {
  it("starts the app", { timeout: 60_000 }, async () => {
    scene.host = await startToolHost(scene.world);
  });

  it("lists the app's tools by extension, readable, and as JSON with --json", async () => {
    const listed = await tool("list");
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split("\n");
    expect(lines[0]).toBe(`Tool fixture (${TOOLS_ID})`);
    const width = `${TOOLS_ID}/picture`.length;
    expect(lines[1]).toBe(`  ${`${TOOLS_ID}/echo`.padEnd(width)}  Echo: Says back what it got`);
    expect(lines[2]).toBe(`  ${`${TOOLS_ID}/plain`.padEnd(width)}  Plain`);
    const json = await tool("list", "--json");
    expect(JSON.parse(json.stdout).tools.map((t: { id: string }) => t.id)).toEqual(
      ["echo", "plain", "fail", "read", "picture", "hash"].map((n) => `${TOOLS_ID}/${n}`),
    );
  });

  it("runs a tool with --field values typed by its fields, and prints the blocks as text", async () => {
    const dir = join(scene.world.root, "cwd");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "a.txt"), "a");
    const answer = await svckit(
      [
        "tool",
        "run",
        `${TOOLS_ID}/echo`,
        "--action",
        "again",
        "--field",
        "count=4",
        "--field",
        "flag=yes",
        "--field",
        "headers=Accept: text/html",
        "--field",
        "file=a.txt",
        "--field",
        "input=x=y",
      ],
      { cwd: dir, env: { SVC_HOME: scene.world.home } },
    );
    expect(answer.stderr).toBe("");
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({
      action: "again",
      values: {
        input: "x=y",
        count: 4,
        flag: true,
        pick: "one",
        source: "",
        headers: [{ name: "Accept", value: "text/html" }],
        file: [await realpath(join(dir, "a.txt"))],
      },
    });
    expect(await tool("run", `${TOOLS_ID}/plain`)).toEqual({ code: 0, stdout: "✔ plain run", stderr: "" });
  });

  it("takes --values as JSON and prints the app's answer with --json", async () => {
    const answer = await tool("run", `${TOOLS_ID}/echo`, "--values", '{"pick": "two"}', "--json");
    expect(answer.code).toBe(0);
    const { blocks } = JSON.parse(answer.stdout);
    expect(JSON.parse(blocks[0].text).values.pick).toBe("two");
  });

  it("says what is wrong: exit 2 for a wrong tool, field, value or action; 1 when the tool fails", async () => {
    expect(await tool("run", `${TOOLS_ID}/nope`)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        `no tool "${TOOLS_ID}/nope": the app's tools are ${TOOLS_ID}/echo, ${TOOLS_ID}/plain`,
      ),
    });
    expect((await tool("run", `${TOOLS_ID}/echo`, "--field", "colour=red")).stderr).toContain(
      '--field colour: Echo has no field "colour"; its fields are input, count, flag, pick, source, headers, file',
    );
    expect(await tool("run", `${TOOLS_ID}/echo`, "--field", "count=many")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--field count=many: count is a number"),
    });
    expect(await tool("run", `${TOOLS_ID}/echo`, "--field", "pick=three")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"values.pick" should be one of "one", "two"'),
    });
    expect(await tool("run", `${TOOLS_ID}/echo`, "--action", "nope")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"action" should be one of "go", "again"'),
    });
    expect(await tool("run", `${TOOLS_ID}/echo`, "--values", "{}", "--field", "count=1")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("use either --values or --field, not both"),
    });
    expect(await tool("run", `${TOOLS_ID}/echo`, "--values", "[1]")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--values should be a JSON object keyed by field id"),
    });
    expect(await tool("run", "echo")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('run needs <extension-id>/<tool>, got "echo"'),
    });
    expect(await tool("walk")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown subcommand "walk": use list, run or drop'),
    });
    expect(await tool("run", `${TOOLS_ID}/plain`, "extra.txt")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unexpected argument "extra.txt"'),
    });
    expect(await tool("run", `${TOOLS_ID}/fail`, "--action", "throw")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Fail failed: bad input: try again"),
    });
  });

  it("drops the files typed at the terminal on a drop action: the message, the files it made, the text to copy", async () => {
    const dir = join(scene.world.root, "drops");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "a.txt"), "a");
    await writeFile(join(dir, "b.txt"), "b");
    const drop = (...words: string[]) =>
      svckit(["tool", "drop", ...words], { cwd: dir, env: { SVC_HOME: scene.world.home } });
    const [a, b] = [await realpath(join(dir, "a.txt")), await realpath(join(dir, "b.txt"))];
    const answer = await drop(`${TOOLS_ID}/hash`, "a.txt", "b.txt");
    expect(answer.stderr).toBe("");
    expect(answer.code).toBe(0);
    // The fixture also hands back /etc/hostname: the app drops a file from outside its fence.
    const list = await realpath(join(scene.world.home, "Data", TOOLS_ID, "list.txt"));
    expect(answer.stdout).toBe(["✔ list 2", `  ${list}`, `text to copy: ${a},${b}`].join("\n"));
    const json = await drop(`${TOOLS_ID}/hash`, "--action", "list", "a.txt", "b.txt", "--json");
    expect(JSON.parse(json.stdout)).toEqual({ message: "list 2", outputs: [list], copiedText: `${a},${b}` });
  });

  it("a wrong drop is one line with the fix (exit 2); the app is not asked to read anything", async () => {
    const dir = join(scene.world.root, "drops");
    const drop = (...words: string[]) =>
      svckit(["tool", "drop", ...words], { cwd: dir, env: { SVC_HOME: scene.world.home } });
    const oneLine = (stderr: string) => stderr.trim().split("\n")[0];
    const cases: Array<[string[], string]> = [
      [[`${TOOLS_ID}/hash`, "a.txt"], '"files": List needs at least 2 files; got 1'],
      [[`${TOOLS_ID}/hash`, "a.txt", "missing.txt"], `"files": ${join(dir, "missing.txt")} does not exist`],
      [
        [`${TOOLS_ID}/hash`, "a.txt", "."],
        `"files": ${dir} is not a file (folders and devices cannot be given to a tool)`,
      ],
      [[`${TOOLS_ID}/hash`, "--action", "nope", "a.txt", "b.txt"], '"action" should be one of "list"; got "nope"'],
      [[`${TOOLS_ID}/hash`], `drop needs files: svckit tool drop ${TOOLS_ID}/hash <file>…`],
      [
        [`${TOOLS_ID}/plain`, "a.txt"],
        `Plain takes no dropped files (it has no drop actions): use svckit tool run ${TOOLS_ID}/plain`,
      ],
      [["hash", "a.txt"], 'drop needs <extension-id>/<tool>, got "hash"'],
      [[`${TOOLS_ID}/hash`, "--field", "x=1", "a.txt"], "--values and --field go with run; drop takes files"],
    ];
    for (const [words, message] of cases) {
      const answer = await drop(...words);
      expect({ words, code: answer.code, line: oneLine(answer.stderr) }).toEqual({
        words,
        code: 2,
        line: expect.stringContaining(message),
      });
      expect(answer.stdout).toBe("");
    }
  });

  it("the executable: exit codes and output as a script sees them", async () => {
    const ok = await svckitProcess(["tool", "run", `${TOOLS_ID}/plain`], {
      cwd: scene.world.root,
      env: { SVC_HOME: scene.world.home },
    });
    expect(ok).toEqual({ code: 0, stdout: "✔ plain run", stderr: "" });
    const failed = await svckitProcess(["tool", "run", `${TOOLS_ID}/fail`, "--action", "throw"], {
      cwd: scene.world.root,
      env: { SVC_HOME: scene.world.home },
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("Fail failed: bad input: try again");
  });

  it(
    "reads webhook.json on every run: a restarted app (new token) is found; no app is said so",
    { timeout: 60_000 },
    async () => {
      await scene.host!.stop();
      // A clean stop removes webhook.json: there is no port left to try.
      expect(await tool("list")).toMatchObject({
        code: 1,
        stderr: `no webhook.json in ${scene.world.home}: start the app (it writes the file at every launch),\nor set SVC_HOME to the support folder the app uses.`,
      });
      scene.host = await startToolHost(scene.world);
      expect((await tool("run", `${TOOLS_ID}/plain`)).stdout).toBe("✔ plain run");
      const nowhere = await svckit(["tool", "list"], {
        cwd: scene.world.root,
        env: { SVC_HOME: join(scene.world.root, "no-app") },
      });
      expect(nowhere).toMatchObject({ code: 1, stderr: expect.stringContaining("no webhook.json in") });
    },
  );
});
