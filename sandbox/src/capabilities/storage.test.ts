import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCapabilities, DEFAULT_LIMITS } from "./index.js";
import { createTestContext, type TestContext } from "./test-context.js";

const MB = 1024 * 1024;
// Writes unpaced here (but for the pacing tests), so big-value tests stay quick.
const FAST = { limits: { storageWriteBytesPerSecond: 1024 * MB } };
let caps = createCapabilities(FAST);
let t: TestContext;
afterEach(() => t?.cleanup());
const call = (op: string, args: object) => caps.async[op](args, t.cx) as Promise<unknown>;
const onDisk = () => JSON.parse(readFileSync(join(t.cx.dataDir, "storage.json"), "utf8"));

describe("storage", () => {
  it("gets, sets and deletes JSON values, persisted in storage.json", async () => {
    t = createTestContext();
    expect(await call("storage.get", { key: "a" })).toBeNull();
    await call("storage.set", { key: "a", value: { n: 1, list: [true, null, "x"] } });
    await call("storage.set", { key: "__proto__", value: 2 });
    expect(await call("storage.get", { key: "a" })).toEqual({ n: 1, list: [true, null, "x"] });
    expect(onDisk()).toEqual(JSON.parse('{"a":{"n":1,"list":[true,null,"x"]},"__proto__":2}'));
    await call("storage.delete", { key: "a" });
    expect(await call("storage.get", { key: "a" })).toBeNull();
    expect(Object.keys(onDisk())).toEqual(["__proto__"]);
  });

  it("a new sandbox reads what an earlier one stored", async () => {
    t = createTestContext();
    await call("storage.set", { key: "k", value: "v" });
    caps = createCapabilities(FAST);
    expect(await call("storage.get", { key: "k" })).toBe("v");
  });

  it("rejects bad keys and a missing value", async () => {
    t = createTestContext();
    expect(await call("storage.set", { key: "k".repeat(256), value: 1 })).toBeNull();
    await expect(call("storage.set", { key: "k".repeat(257), value: 1 })).rejects.toThrow(
      'storage.set: "key" should be at most 256 characters long',
    );
    await expect(call("storage.get", { key: "" })).rejects.toThrow('storage.get: "key" should not be empty');
    await expect(call("storage.get", { key: 5 })).rejects.toThrow('storage.get: "key" should be a string');
    await expect(call("storage.set", { key: "k" })).rejects.toThrow(
      'storage.set: "value" is missing; use storage.delete to remove a key',
    );
  });

  it("holds exactly 5 MB; a change past it is refused and changes nothing", async () => {
    t = createTestContext();
    expect(DEFAULT_LIMITS.storageBytes).toBe(5 * MB);
    const overhead = JSON.stringify({ big: "" }).length;
    await call("storage.set", { key: "big", value: "a".repeat(5 * MB - overhead) });
    expect(readFileSync(join(t.cx.dataDir, "storage.json")).length).toBe(5 * MB);
    await call("storage.set", { key: "big", value: "b" });
    await call("storage.set", { key: "big", value: "a".repeat(5 * MB - overhead) });
    await expect(call("storage.set", { key: "big", value: "a".repeat(5 * MB - overhead + 1) })).rejects.toThrow(
      `storage: this change would make storage ${5 * MB + 1} bytes, over the limit of 5 MB (5242880 bytes)`,
    );
    expect(((await call("storage.get", { key: "big" })) as string).length).toBe(5 * MB - overhead);
    expect(readFileSync(join(t.cx.dataDir, "storage.json")).length).toBe(5 * MB);
  });

  it("recovers from a corrupt file: moves it aside, logs, starts empty", async () => {
    t = createTestContext();
    writeFileSync(join(t.cx.dataDir, "storage.json"), '{"half": "writ');
    expect(await call("storage.get", { key: "half" })).toBeNull();
    const aside = readdirSync(t.cx.dataDir).filter((f) => f.startsWith("storage.json.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(t.cx.dataDir, aside[0]), "utf8")).toBe('{"half": "writ');
    expect(t.logs).toEqual([
      `warn: storage: ${join(t.cx.dataDir, "storage.json")} was not a JSON object; moved it to ${join(t.cx.dataDir, aside[0])} and started empty`,
    ]);
    await call("storage.set", { key: "fresh", value: 1 });
    expect(onDisk()).toEqual({ fresh: 1 });
  });

  it("treats a JSON value that is not an object as corrupt", async () => {
    t = createTestContext();
    writeFileSync(join(t.cx.dataDir, "storage.json"), "[1,2]");
    expect(await call("storage.get", { key: "0" })).toBeNull();
    expect(t.logs).toHaveLength(1);
  });

  it("serializes concurrent writes; the file is always whole JSON; no temporary file is left", async () => {
    t = createTestContext();
    const file = join(t.cx.dataDir, "storage.json");
    let reads = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        try {
          JSON.parse(readFileSync(file, "utf8"));
          reads++;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => call("storage.set", { key: `k${i}`, value: "x".repeat(10_000) })),
    );
    // Changes are written together now, so the poller may not have caught a write in progress yet.
    while (reads === 0) await new Promise((r) => setTimeout(r, 5));
    polling = false;
    await poll;
    expect(reads).toBeGreaterThan(0);
    expect(Object.keys(onDisk())).toHaveLength(100);
    expect(readdirSync(t.cx.dataDir)).toEqual(["storage.json"]);
  });

  it("counts each change by its own value: the total stays exact over many changes", async () => {
    t = createTestContext();
    const values: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) {
      const key = `k${i % 7}`;
      const value = i % 5 === 0 ? undefined : { i, s: "é".repeat(i) };
      if (value === undefined) {
        delete values[key];
        await call("storage.delete", { key });
      } else {
        values[key] = value;
        await call("storage.set", { key, value });
      }
    }
    expect(onDisk()).toEqual(values);
    // At the limit exactly by the kept total, never by re-measuring.
    const now = Buffer.byteLength(JSON.stringify(values));
    const room = 5 * MB - now - JSON.stringify({ fill: "" }).length + 1;
    await call("storage.set", { key: "fill", value: "a".repeat(room) });
    expect(readFileSync(join(t.cx.dataDir, "storage.json")).length).toBe(5 * MB);
    await expect(call("storage.set", { key: "one-more", value: 1 })).rejects.toThrow("over the limit of 5 MB");
  });
});

describe("the cost of storage writes is bounded", () => {
  it("after writing N bytes the next write waits N / rate; changes made meanwhile are written together", async () => {
    caps = createCapabilities({ limits: { storageWriteBytesPerSecond: 1 * MB } });
    t = createTestContext();
    const big = "x".repeat(MB / 4); // each write of the file takes 250 ms of the budget
    await call("storage.set", { key: "big", value: big });
    const started = Date.now();
    await call("storage.set", { key: "n", value: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    // 100 changes while a write is pending: all in one or two writes, not 100 (which would take 25 s).
    const burst = Date.now();
    await Promise.all(Array.from({ length: 100 }, (_, i) => call("storage.set", { key: "n", value: i })));
    expect(Date.now() - burst).toBeLessThan(12_000);
    expect(onDisk()).toEqual({ big, n: 99 });
    caps = createCapabilities(FAST);
  });

  it("a loop rewriting a 2 MB store writes at most about 1 MB/s", async () => {
    caps = createCapabilities({ limits: { storageWriteBytesPerSecond: 1 * MB } });
    t = createTestContext();
    await call("storage.set", { key: "big", value: "x".repeat(2 * MB) });
    let done = 0;
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      await call("storage.set", { key: "n", value: done });
      done++;
    }
    // Each write of ~2 MB buys a 2 s pause: in 3 s at most 2 more writes (unpaced: hundreds).
    expect(done).toBeLessThanOrEqual(2);
    caps = createCapabilities(FAST);
  });
});
