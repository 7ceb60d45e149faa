import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SEQ_FILE, SeqStore } from "./seq-store.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-seq-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("SeqStore", () => {
  it("counts per blip id from 1 and persists before answering", async () => {
    const dir = tempDir();
    const store = SeqStore.open(dir);
    expect(await store.next("x/a")).toBe(1);
    expect(await store.next("x/a")).toBe(2);
    expect(await store.next("x/b")).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, SEQ_FILE), "utf8"))).toEqual({ floor: 0, last: { "x/a": 2, "x/b": 1 } });
  });

  it("continues after a reopen", async () => {
    const dir = tempDir();
    await SeqStore.open(dir).next("x/a");
    const again = SeqStore.open(dir);
    expect(await again.next("x/a")).toBe(2);
  });

  it("hands out increasing numbers to a burst and writes them in one file", async () => {
    const dir = tempDir();
    const store = SeqStore.open(dir);
    const seqs = await Promise.all(Array.from({ length: 50 }, () => store.next("x/a")));
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(SeqStore.open(dir).last("x/a")).toBe(50);
    expect(readdirSync(dir)).toEqual([SEQ_FILE]);
  });

  it("writes once for every next of one turn, and once more for those made while it writes", async () => {
    const dir = tempDir();
    const store = SeqStore.open(dir);
    const first = Array.from({ length: 20 }, (_, i) => store.next(`x/${i % 3}`));
    expect(store.writes).toBe(0); // nothing starts before the turn ends
    await first[0];
    expect(store.writes).toBe(1);
    const second = [store.next("x/0"), store.next("x/1")];
    expect(await Promise.all(second)).toEqual([8, 8]);
    expect(store.writes).toBe(2);
    expect(JSON.parse(readFileSync(join(dir, SEQ_FILE), "utf8"))).toEqual({
      floor: 0,
      last: { "x/0": 8, "x/1": 8, "x/2": 6 },
    });
  });

  it("moves a corrupt file aside and restarts above the current time", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, SEQ_FILE), '{"floor": 0, "last": {"x/a": 9');
    const notes: string[] = [];
    const store = SeqStore.open(
      dir,
      (m) => notes.push(m),
      () => 1_700_000_000_000,
    );
    expect(await store.next("x/a")).toBe(1_700_000_000_001);
    expect(readdirSync(dir).sort()).toEqual([SEQ_FILE, `${SEQ_FILE}.corrupt-1700000000000`]);
    expect(notes[0]).toContain("was corrupt");
    expect(SeqStore.open(dir).last("x/a")).toBe(1_700_000_000_001);
  });

  it("treats a file of the wrong shape as corrupt", () => {
    const dir = tempDir();
    writeFileSync(join(dir, SEQ_FILE), JSON.stringify({ floor: 0, last: { "x/a": "7" } }));
    const store = SeqStore.open(
      dir,
      () => {},
      () => 5000,
    );
    expect(store.last("x/a")).toBeUndefined();
    return expect(store.next("x/a")).resolves.toBe(5001);
  });
});
