import { describe, expect, it } from "vitest";
import {
  TRIAGE,
  applyTriage,
  doneItem,
  readTriage,
  snoozedItem,
  sortDone,
  sortSnoozed,
  triageState,
  triaged,
  type TriageBook,
} from "./triage.js";
import { memoryStorage } from "./memory-storage.js";
import { list } from "../builders/blips.js";
import { processBlipInput } from "../processing/index.js";

const NOW = Date.parse("2025-03-01T09:30:00.000Z");
const iso = (msFromNow: number) => new Date(NOW + msFromNow).toISOString();
const HOUR = 3600_000;

const item = (id: string) => ({
  id,
  title: `Item ${id}`,
  actions: [{ id: "open", title: "Open" }, TRIAGE.done, TRIAGE.snooze],
});
const book: TriageBook = {
  b: { state: "done", at: iso(-HOUR) },
  c: { state: "snoozed", at: iso(-HOUR), until: iso(5 * HOUR) },
  d: { state: "snoozed", at: iso(-HOUR), until: iso(2 * HOUR) },
  e: { state: "snoozed", at: iso(-2 * HOUR), until: iso(-1) },
};

describe("triageState", () => {
  it("tells open, snoozed and done apart", () => {
    expect(triageState(book, "a", NOW)).toBe("open");
    expect(triageState(book, "b", NOW)).toBe("done");
    expect(triageState(book, "c", NOW)).toBe("snoozed");
  });
  it("wakes a snooze at its time exactly", () => {
    expect(triageState(book, "d", NOW + 2 * HOUR - 1)).toBe("snoozed");
    expect(triageState(book, "d", NOW + 2 * HOUR)).toBe("open");
    expect(triageState(book, "e", NOW)).toBe("open");
  });
  it("reopens a done item that changed after it was marked", () => {
    expect(triageState(book, "b", NOW, iso(-2 * HOUR))).toBe("done");
    expect(triageState(book, "b", NOW, iso(-HOUR + 1))).toBe("open");
  });
  it("does not read inherited keys as marks", () => {
    expect(triageState(book, "toString", NOW)).toBe("open");
  });
});

describe("sorting", () => {
  const items = ["c", "a", "d", "b", "e"].map(item);
  it("sortSnoozed moves snoozed items last, soonest to wake first", () => {
    expect(sortSnoozed(items, book, NOW).map((i) => i.id)).toEqual(["a", "b", "e", "d", "c"]);
  });
  it("sortDone moves done items last, keeping the order", () => {
    expect(sortDone(items, book).map((i) => i.id)).toEqual(["c", "a", "d", "e", "b"]);
    expect(sortDone(items, book, (i) => (i.id === "b" ? iso(0) : undefined)).map((i) => i.id)).toEqual([
      "c",
      "a",
      "d",
      "b",
      "e",
    ]);
  });
});

describe("dressing items", () => {
  it("snoozedItem says when it wakes and offers Wake", () => {
    expect(snoozedItem({ ...item("c"), subtitle: "octo/web" }, iso(2 * HOUR), NOW)).toEqual({
      id: "c",
      title: "Item c",
      subtitle: "octo/web · wakes in 2h",
      state: "idle",
      actions: [{ id: "open", title: "Open" }, TRIAGE.wake],
    });
  });
  it("doneItem is a success with Reopen", () => {
    expect(doneItem(item("b"))).toEqual({
      id: "b",
      title: "Item b",
      state: "success",
      actions: [{ id: "open", title: "Open" }, TRIAGE.reopen],
    });
  });
  it("triaged orders open, snoozed, done, dressed, and the list is a valid payload", () => {
    const items = triaged(["c", "a", "d", "b", "e"].map(item), book, { now: NOW });
    expect(items.map((i) => [i.id, i.state ?? "open"])).toEqual([
      ["a", "open"],
      ["e", "open"],
      ["d", "idle"],
      ["c", "idle"],
      ["b", "success"],
    ]);
    expect(items[2].subtitle).toBe("wakes in 2h");
    const result = processBlipInput(list("inbox", { title: "Inbox", items }), { extensionId: "x", seq: 1 });
    expect(result.ok).toBe(true);
  });
});

describe("storage", () => {
  it("applyTriage marks done, snoozes, wakes and reopens the pressed item", async () => {
    const storage = memoryStorage();
    const press = (actionId: string, input?: string) =>
      applyTriage(storage, { actionId, key: "inbox", itemId: "pr-1", input }, { now: NOW, utcOffset: 0 });
    expect(await press(TRIAGE.done.id)).toBe(true);
    expect(storage.snapshot()[TRIAGE.storageKey]).toEqual({ "pr-1": { state: "done", at: iso(0) } });
    expect(await press(TRIAGE.snooze.id, "3h")).toBe(true);
    expect(await readTriage(storage, undefined, NOW)).toEqual({
      "pr-1": { state: "snoozed", at: iso(0), until: iso(3 * HOUR) },
    });
    expect(await press(TRIAGE.wake.id)).toBe(true);
    expect(await readTriage(storage, undefined, NOW)).toEqual({});
    await press(TRIAGE.done.id);
    await press(TRIAGE.reopen.id);
    expect(await readTriage(storage, undefined, NOW)).toEqual({});
  });
  it("applyTriage leaves other actions alone", async () => {
    const storage = memoryStorage();
    expect(await applyTriage(storage, { actionId: "merge", key: "inbox", itemId: "pr-1" })).toBe(false);
    expect(storage.snapshot()).toEqual({});
  });
  it("marks the blip itself when the button was not on an item", async () => {
    const storage = memoryStorage();
    await applyTriage(storage, { actionId: TRIAGE.done.id, key: "alert-7" }, { now: NOW });
    expect(await readTriage(storage, undefined, NOW)).toEqual({ "alert-7": { state: "done", at: iso(0) } });
  });
  it("a snooze it cannot read fails and changes nothing", async () => {
    const storage = memoryStorage();
    await expect(
      applyTriage(storage, { actionId: TRIAGE.snooze.id, key: "k", itemId: "i", input: "soonish" }),
    ).rejects.toThrow('can\'t snooze for "soonish"');
    expect(storage.snapshot()).toEqual({});
  });
  it("readTriage drops run-out snoozes and anything malformed", async () => {
    const storage = memoryStorage({ [TRIAGE.storageKey]: { ...book, z: { state: "weird" }, y: null } });
    expect(Object.keys(await readTriage(storage, undefined, NOW))).toEqual(["b", "c", "d"]);
    expect(await readTriage(memoryStorage({ [TRIAGE.storageKey]: "junk" }))).toEqual({});
  });
});
