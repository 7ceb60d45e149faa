import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BlipStore } from "./blip-store.js";
import type { BlipChange } from "./types.js";

let dir: string;
let file: string;
const logs: string[] = [];
const log = (level: string, message: string) => void logs.push(`${level}: ${message}`);
const stores: BlipStore[] = [];

async function open(options: { now?: () => number } = {}): Promise<BlipStore> {
  const store = await BlipStore.open(file, { log, saveDelayMs: 10, ...options });
  stores.push(store);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-store-"));
  file = join(dir, "blips.json");
  logs.length = 0;
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.dispose();
  await rm(dir, { recursive: true, force: true });
});

const EXT = "com.example.ci";

function update(key: string, seq: number, extra: Record<string, unknown> = {}, extensionId = EXT) {
  return {
    extensionId,
    payload: {
      id: `${extensionId}/${key}`,
      seq,
      v: 1 as const,
      emittedAt: "2025-03-01T09:30:00.000Z",
      title: `T${seq}`,
      layout: "progress",
      data: { fraction: 0.5 },
      ...extra,
    },
  };
}

function pushed(key: string, seq = 1, title = "Pushed") {
  return {
    payload: {
      id: `webhook/${key}`,
      seq,
      v: 1 as const,
      emittedAt: "2025-03-01T09:30:00.000Z",
      title,
      layout: "progress" as const,
      data: { fraction: 0 },
    },
    stampSeq: false,
  };
}

describe("blip.update", () => {
  it("stores the payload with its extension source", async () => {
    const store = await open();
    expect(store.applyUpdate(update("build", 1))).toBe(true);
    expect(store.get(`${EXT}/build`)).toMatchObject({
      id: `${EXT}/build`,
      seq: 1,
      source: { kind: "extension", extensionId: EXT },
      payload: { title: "T1" },
    });
  });

  it("refuses an out-of-order or repeated seq; the newer blip stays", async () => {
    const store = await open();
    store.applyUpdate(update("build", 5));
    expect(store.applyUpdate(update("build", 4))).toBe(false);
    expect(store.applyUpdate(update("build", 5, { title: "again" }))).toBe(false);
    expect(store.get(`${EXT}/build`)!.payload.title).toBe("T5");
    expect(store.applyUpdate(update("build", 6))).toBe(true);
    expect(store.get(`${EXT}/build`)!.payload.title).toBe("T6");
  });

  it("ignores an id outside the extension's own namespace", async () => {
    const store = await open();
    const forged = { extensionId: EXT, payload: { ...update("x", 1).payload, id: "com.other/x" } };
    expect(store.applyUpdate(forged)).toBe(false);
    expect(store.list()).toEqual([]);
    expect(logs[0]).toMatch(/^warn: blip\.update from com\.example\.ci for com\.other\/x ignored/);
  });

  it("takes over an id a push squatted, whatever the seqs", async () => {
    const store = await open();
    store.push([{ ...pushed("x", 50), payload: { ...pushed("x", 50).payload, id: `${EXT}/x` } }]);
    expect(store.applyUpdate(update("x", 1))).toBe(true);
    expect(store.get(`${EXT}/x`)!.source).toEqual({ kind: "extension", extensionId: EXT });
  });

  it("keeps arrival order; an update keeps its place", async () => {
    const store = await open();
    store.applyUpdate(update("a", 1));
    store.push([pushed("p")]);
    store.applyUpdate(update("b", 1));
    store.applyUpdate(update("a", 2));
    expect(store.list().map((b) => b.id)).toEqual([`${EXT}/a`, "webhook/p", `${EXT}/b`]);
  });
});

describe("markStaleAtWake", () => {
  it("marks live blips whose staleAfter passed, announces them, and the next update clears the mark", async () => {
    const store = await open();
    const changes: BlipChange[] = [];
    store.onChange((change) => changes.push(change));
    const at = Date.parse("2025-03-01T10:00:00.000Z");
    store.applyUpdate(update("passed", 1, { staleAfter: "2025-03-01T09:59:59.999Z" }));
    store.applyUpdate(update("at", 1, { staleAfter: "2025-03-01T10:00:00.000Z" }));
    store.applyUpdate(update("none", 1));
    store.applyUpdate(update("ended", 1, { staleAfter: "2025-03-01T09:00:00.000Z" }));
    store.applyEnd({ extensionId: EXT, id: `${EXT}/ended`, seq: 2 });
    changes.length = 0;

    expect(store.markStaleAtWake(at)).toEqual([`${EXT}/passed`]);
    expect(
      changes.map((c) => [
        c.type,
        c.type === "remove" ? c.id : c.blip.id,
        c.type === "remove" ? undefined : c.blip.stale,
      ]),
    ).toEqual([["update", `${EXT}/passed`, true]]);
    expect(store.get(`${EXT}/passed`)?.seq).toBe(1);
    expect(store.markStaleAtWake(at + 1)).toEqual([`${EXT}/at`]); // already marked: not again
    store.applyUpdate(update("passed", 2, { staleAfter: "2025-03-01T11:00:00.000Z" }));
    expect(store.get(`${EXT}/passed`)?.stale).toBeUndefined();
  });
});

describe("blip.end", () => {
  it("sets state and seq, and removes the blip dismissAfter seconds later", async () => {
    const store = await open();
    store.applyUpdate(update("build", 1, { state: "running" }));
    expect(store.applyEnd({ extensionId: EXT, id: `${EXT}/build`, seq: 2, state: "success", dismissAfter: 0.1 })).toBe(
      true,
    );
    const ended = store.get(`${EXT}/build`)!;
    expect(ended.seq).toBe(2);
    expect(ended.payload).toMatchObject({ state: "success", seq: 2 });
    expect(Date.parse(ended.ended!.dismissAt!) - Date.parse(ended.ended!.at)).toBe(100);
    await new Promise((r) => setTimeout(r, 200));
    expect(store.get(`${EXT}/build`)).toBeUndefined();
  });

  it("stays without dismissAfter, and a newer update cancels a pending dismissal", async () => {
    const store = await open();
    store.applyUpdate(update("a", 1));
    store.applyEnd({ extensionId: EXT, id: `${EXT}/a`, seq: 2 });
    store.applyUpdate(update("b", 1));
    store.applyEnd({ extensionId: EXT, id: `${EXT}/b`, seq: 2, dismissAfter: 0.05 });
    store.applyUpdate(update("b", 3));
    await new Promise((r) => setTimeout(r, 120));
    expect(store.get(`${EXT}/a`)!.ended).toBeDefined();
    expect(store.get(`${EXT}/b`)!.ended).toBeUndefined();
  });

  it("refuses an end older than the blip, and remembers an end for an unknown blip", async () => {
    const store = await open();
    store.applyUpdate(update("a", 3));
    expect(store.applyEnd({ extensionId: EXT, id: `${EXT}/a`, seq: 3, state: "failure" })).toBe(false);
    expect(store.get(`${EXT}/a`)!.payload.state).toBeUndefined();
    expect(store.applyEnd({ extensionId: EXT, id: `${EXT}/late`, seq: 9 })).toBe(false);
    expect(store.applyUpdate(update("late", 8))).toBe(false);
    expect(store.applyUpdate(update("late", 10))).toBe(true);
  });
});

describe("blip.remove", () => {
  it("removes only the extension's own blip, and a later older update stays out", async () => {
    const store = await open();
    store.applyUpdate(update("a", 2));
    store.push([pushed("p")]);
    expect(store.applyRemove({ extensionId: "com.other", id: `${EXT}/a` })).toBe(false);
    expect(store.applyRemove({ extensionId: EXT, id: "webhook/p" })).toBe(false);
    expect(store.applyRemove({ extensionId: EXT, id: `${EXT}/a` })).toBe(true);
    expect(store.applyUpdate(update("a", 1))).toBe(false);
    expect(store.get(`${EXT}/a`)).toBeUndefined();
  });

  it("removeExtension takes away every blip of one extension", async () => {
    const store = await open();
    store.applyUpdate(update("a", 1));
    store.applyUpdate(update("b", 1));
    store.applyUpdate(update("c", 1, {}, "com.other"));
    store.push([pushed("p")]);
    expect(store.removeExtension(EXT)).toBe(2);
    expect(store.list().map((b) => b.id)).toEqual(["com.other/c", "webhook/p"]);
  });
});

describe("pushes", () => {
  it("stamps the next seq per id when asked, continuing after removal", async () => {
    const store = await open();
    expect(
      store.push([
        { ...pushed("d"), stampSeq: true },
        { ...pushed("d"), stampSeq: true },
      ]),
    ).toEqual([
      { id: "webhook/d", seq: 1, applied: true },
      { id: "webhook/d", seq: 2, applied: true },
    ]);
    store.removeBlip("webhook/d");
    expect(store.push([{ ...pushed("d"), stampSeq: true }])).toEqual([{ id: "webhook/d", seq: 3, applied: true }]);
    expect(store.get("webhook/d")!.payload.seq).toBe(3);
  });

  it("endPushed stamps a new seq and only ends pushed blips", async () => {
    const store = await open();
    store.push([pushed("d", 4)]);
    store.applyUpdate(update("e", 1));
    expect(store.endPushed("webhook/d", { state: "success" })).toEqual({ id: "webhook/d", seq: 5 });
    expect(store.endPushed(`${EXT}/e`, {})).toBeUndefined();
    expect(store.endPushed("webhook/none", {})).toBeUndefined();
  });
});

describe("change events", () => {
  it("announces update, end and remove, and a failing listener hurts no one", async () => {
    const store = await open();
    const seen: string[] = [];
    store.onChange(() => {
      throw new Error("display broke");
    });
    const stop = store.onChange((c: BlipChange) =>
      seen.push(`${c.type} ${c.type === "remove" ? c.id : `${c.blip.id}@${c.blip.seq}`}`),
    );
    store.applyUpdate(update("a", 1));
    store.applyUpdate(update("a", 1));
    store.applyEnd({ extensionId: EXT, id: `${EXT}/a`, seq: 2 });
    store.applyRemove({ extensionId: EXT, id: `${EXT}/a` });
    stop();
    store.applyUpdate(update("b", 1));
    expect(seen).toEqual([`update ${EXT}/a@1`, `end ${EXT}/a@2`, `remove ${EXT}/a`]);
    expect(logs.filter((l) => l.includes("display broke"))).toHaveLength(4);
  });
});

describe("persistence", () => {
  it("survives a restart with blips, order, endings and seqs intact", async () => {
    const first = await open();
    first.applyUpdate(update("a", 7));
    first.push([
      { ...pushed("p"), stampSeq: true },
      { ...pushed("p"), stampSeq: true },
    ]);
    first.applyEnd({ extensionId: EXT, id: `${EXT}/a`, seq: 8, state: "success" });
    first.applyUpdate(update("gone", 3));
    first.applyRemove({ extensionId: EXT, id: `${EXT}/gone` });
    await first.dispose();

    const second = await open();
    expect(second.list().map((b) => [b.id, b.seq, b.payload.state])).toEqual([
      [`${EXT}/a`, 8, "success"],
      ["webhook/p", 2, undefined],
    ]);
    expect(second.get(`${EXT}/a`)!.ended).toBeDefined();
    expect(second.applyUpdate(update("a", 8))).toBe(false);
    expect(second.applyUpdate(update("gone", 3))).toBe(false);
    expect(second.push([{ ...pushed("p"), stampSeq: true }])[0].seq).toBe(3);
  });

  it("writes once after a burst of changes, atomically, leaving no temp files", async () => {
    const store = await open();
    for (let seq = 1; seq <= 50; seq++) store.applyUpdate(update("a", seq));
    await store.flush();
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved.version).toBe(1);
    expect(saved.blips[0].seq).toBe(50);
    expect(saved.seqs[`${EXT}/a`]).toEqual({ seq: 50, owner: EXT });
    expect(await readdir(dir)).toEqual(["blips.json"]);
  });

  it("moves an unreadable file aside and starts empty", async () => {
    await writeFile(file, "{broken");
    const store = await open();
    expect(store.list()).toEqual([]);
    expect((await readdir(dir)).some((name) => name.startsWith("blips.json.corrupt-"))).toBe(true);
    expect(logs.some((l) => l.startsWith("warn: blip store") && l.includes("unreadable"))).toBe(true);
  });

  it("skips malformed entries but keeps the good ones", async () => {
    const good = {
      id: "webhook/g",
      seq: 2,
      source: { kind: "webhook" },
      payload: { id: "webhook/g", seq: 2, layout: "progress", title: "G", data: { fraction: 0 } },
    };
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        blips: [good, { id: 5 }, { ...good, id: "webhook/h" }],
        seqs: { "webhook/g": { seq: 2, owner: "webhook" }, bad: 3 },
      }),
    );
    const store = await open();
    expect(store.list().map((b) => b.id)).toEqual(["webhook/g"]);
    expect(store.lastSeq("webhook/g")).toBe(2);
    expect(store.lastSeq("bad")).toBe(0);
  });

  it("removes at open a blip whose dismissal time has passed", async () => {
    const first = await open();
    first.applyUpdate(update("a", 1));
    first.applyEnd({ extensionId: EXT, id: `${EXT}/a`, seq: 2, dismissAfter: 60 });
    await first.dispose();
    const later = await open({ now: () => Date.now() + 61_000 });
    await new Promise((r) => setTimeout(r, 20));
    expect(later.get(`${EXT}/a`)).toBeUndefined();
  });
});

describe("the cap on an extension's blips", () => {
  it("keeps 64 per extension, refuses the 65th (another extension unaffected), and logs refusals at most once a second", async () => {
    let now = 1_000_000;
    const store = await open({ now: () => now });
    for (let i = 0; i < 64; i++) expect(store.applyUpdate(update(`k${i}`, 1))).toBe(true);
    expect(store.applyUpdate(update("k64", 1))).toBe(false);
    expect(store.applyUpdate(update("k65", 1))).toBe(false);
    expect(store.applyUpdate(update("k66", 1))).toBe(false);
    // An update of a live one still goes; another extension has its own 64.
    expect(store.applyUpdate(update("k0", 2))).toBe(true);
    expect(store.applyUpdate(update("x", 1, {}, "com.example.other"))).toBe(true);
    const full = `${EXT} already has 64 blips, the most one extension may have is 64: remove one first (ctx.remove), or reuse a key`;
    expect(logs).toEqual([`warn: dropped blip ${EXT}/k64: ${full}`]);
    now += 1000;
    expect(store.applyUpdate(update("k67", 1))).toBe(false);
    expect(logs).toEqual([
      `warn: dropped blip ${EXT}/k64: ${full}`,
      `warn: dropped blip ${EXT}/k67: ${full} (2 more dropped before this, not logged)`,
    ]);
    store.applyRemove({ extensionId: EXT, id: `${EXT}/k1` });
    expect(store.applyUpdate(update("k67", 2))).toBe(true);
  });
});
