/**
 * `svckit check`: TypeScript over a scaffolded extension, through the built executable. A new
 * extension type-checks as written (against svckit's own @svc/api when the folder has none);
 * a type error is one line with its place, exit 1. `build` says it does not check types.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svckitProcess, tempFolder } from "./harness.js";

let folder: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempFolder("svckit-check-");
});
afterAll(() => folder.remove());

describe("svckit check", { timeout: 90_000 }, () => {
  it("passes a new extension and names each type error's place", async () => {
    expect((await svckitProcess(["new", "typed", "--template", "payments"], { cwd: folder.dir })).code).toBe(0);
    const dir = join(folder.dir, "typed");
    expect(await svckitProcess(["check"], { cwd: dir })).toEqual({ code: 0, stdout: "types ok", stderr: "" });

    const source = join(dir, "src", "index.ts");
    await writeFile(source, `${await readFile(source, "utf8")}\nconst wrong: number = "seven";\nexport { wrong };\n`);
    const lines = (await readFile(source, "utf8")).split("\n");
    const line = lines.findIndex((text) => text.startsWith("const wrong")) + 1;
    const failed = await svckitProcess(["check"], { cwd: dir });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      `src/index.ts:${line}:7: error TS2322: Type 'string' is not assignable to type 'number'.\ncheck failed: 1 type error`,
    );

    // build bundles all the same (esbuild drops types), and says it did not check them.
    const built = await svckitProcess(["build"], { cwd: dir });
    expect(built.code).toBe(0);
    expect(built.stdout.split("\n").at(-1)).toBe("(types not checked: svckit check does that)");
  });
});
