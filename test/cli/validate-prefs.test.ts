/**
 * `svckit validate --prefs` and required options, and a misspelt manifest key, through the
 * built svckit executable: the option values reach update() in the real sandbox, a password
 * only from the environment, a required option left unset fails validation with the fix.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svckitProcess, tempFolder } from "./harness.js";
import { writeFixture } from "./fixtures.js";

let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-prefs-");
});
afterAll(() => folder.remove());

const PREFS = [
  { name: "apiUrl", title: "API URL", type: "textfield", required: true },
  { name: "apiToken", title: "API token", type: "password", required: true },
  { name: "limit", title: "Limit", type: "number", default: 5 },
];

const SOURCE = `import { defineExtension, stat } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    const p = ctx.preferences;
    await ctx.emit(stat("seen", { title: "Seen", value: String(p.apiUrl) + " " + (p.apiToken === "s3cret" ? "token ok" : "no token") + " " + String(p.limit) }));
  },
});
`;

describe("svckit validate --prefs", () => {
  it("reports each required option left unset, with how to give it, and still runs update()", async () => {
    const dir = await writeFixture(join(folder.dir, "unset"), { svc: { preferences: PREFS }, source: SOURCE });
    const result = await svckitProcess(["validate"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `option "apiUrl" (API URL) is required and not set; give it: --prefs '{"apiUrl": …}'`,
        `option "apiToken" (API token) is required and not set; give it: SVC_PREF_APITOKEN=… svckit validate`,
        "validate failed: 2 problems (see above)",
      ].join("\n"),
    );
    expect(result.stdout).toContain('update() with preferences {"apiUrl":null,"apiToken":null,"limit":5}:');
    expect(result.stdout).toContain('"value": "null no token 5"');
  });

  it("runs update() with the values given, the password from the environment (never printed)", async () => {
    const dir = await writeFixture(join(folder.dir, "given"), { svc: { preferences: PREFS }, source: SOURCE });
    const result = await svckitProcess(["validate", "--prefs", '{"apiUrl": "https://api.example.com", "limit": 9}'], {
      cwd: dir,
      env: { SVC_PREF_APITOKEN: "s3cret" },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'update() with preferences {"apiUrl":"https://api.example.com","apiToken":"(set)","limit":9}:',
    );
    expect(result.stdout).toContain('"value": "https://api.example.com token ok 9"');
    expect(result.stdout).not.toContain("s3cret");
  });

  it(
    "refuses a password on the command line, an unknown option and a value of the wrong kind (exit 2)",
    { timeout: 60_000 },
    async () => {
      const dir = await writeFixture(join(folder.dir, "wrong"), { svc: { preferences: PREFS }, source: SOURCE });
      const run = (prefs: string) => svckitProcess(["validate", "--prefs", prefs], { cwd: dir });
      const [password, unknown, wrong, array] = await Promise.all(
        ['{"apiToken": "s3cret"}', '{"colour": "red"}', '{"limit": "many"}', "[1]"].map(run),
      );
      expect(password).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^--prefs: "apiToken" is a password option: give it in the environment instead, as SVC_PREF_APITOKEN=… \(a command line is kept in shell history\)/,
        ),
      });
      expect(unknown).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^--prefs: "colour" is not an option of this extension; its options are: apiUrl, apiToken, limit/,
        ),
      });
      expect(wrong).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^--prefs: "limit" should be a finite number/),
      });
      expect(array).toMatchObject({ code: 2, stderr: expect.stringMatching(/^--prefs should be a JSON object/) });
    },
  );
});

describe("a manifest key svc does not know", () => {
  it("fails the build with the key that was meant", async () => {
    const dir = await writeFixture(join(folder.dir, "typo"), { svc: { interval: undefined, intervall: "5m" } });
    const result = await svckitProcess(["build"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('package.json: "svc.intervall" is not a manifest key; did you mean "interval"?');
  });
});
