/**
 * Snapshot helpers: what they leave out and replace, the file written once and compared after,
 * and how a difference reads.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SnapshotMismatchError, matchSnapshot, snapshotOf } from "./snapshot.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-snapshot-"));
  dirs.push(dir);
  return dir;
}

describe("snapshotOf", () => {
  it("leaves out emittedAt at any depth, replaces UUIDs and the keys named as varying", () => {
    const blip = {
      id: "com.example.x/run-0b9f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4",
      emittedAt: "2025-03-01T09:30:00.000Z",
      seq: 3,
      data: { requestId: 981723, nested: [{ emittedAt: "x", keep: 1 }] },
    };
    expect(snapshotOf(blip, { varying: ["requestId"] })).toEqual({
      id: "com.example.x/run-[uuid]",
      seq: 3,
      data: { requestId: "[varies]", nested: [{ keep: 1 }] },
    });
  });
});

describe("matchSnapshot", () => {
  it("writes the file the first time, passes when the same, and fails with a line diff when not", async () => {
    const dir = await tempDir();
    await matchSnapshot("blips", [{ title: "Deploying web", state: "running", emittedAt: "now" }], { dir });
    expect(JSON.parse(await readFile(join(dir, "blips.json"), "utf8"))).toEqual([
      { title: "Deploying web", state: "running" },
    ]);
    await matchSnapshot("blips", [{ title: "Deploying web", state: "running", emittedAt: "later" }], { dir });
    const failure = await matchSnapshot("blips", [{ title: "Deploying web", state: "failure" }], { dir }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(SnapshotMismatchError);
    expect((failure as Error).message).toBe(
      `snapshot ${join(dir, "blips.json")} differs (- stored, + now):\n` +
        '    {\n      "title": "Deploying web",\n-     "state": "running"\n+     "state": "failure"\n    }\n  ]\n' +
        "If the change is right, run svckit test --update",
    );
  });

  it("update writes the new value", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "x.json"), '{"a": 1}\n');
    await matchSnapshot("x", { a: 2 }, { dir, update: true });
    expect(await readFile(join(dir, "x.json"), "utf8")).toBe('{\n  "a": 2\n}\n');
  });

  it("refuses a name that is not a plain file name", async () => {
    await expect(matchSnapshot("../evil", {})).rejects.toThrow(
      'snapshot name "../evil": use 1–100 letters, digits, ".", "_" or "-"',
    );
  });
});
