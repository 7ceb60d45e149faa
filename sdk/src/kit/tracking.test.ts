import { describe, expect, it } from "vitest";
import { news, underWay } from "./tracking.js";
import { memoryStorage } from "./memory-storage.js";

const NOW = Date.parse("2025-03-01T09:30:00.000Z");

describe("news", () => {
  it("learns on the first call, then returns only what is new", async () => {
    const storage = memoryStorage();
    expect(await news(storage, "payments", [{ id: "p1" }, { id: "p2" }])).toEqual([]);
    expect(await news(storage, "payments", [{ id: "p3" }, { id: "p1" }, { id: "p2" }])).toEqual([{ id: "p3" }]);
    expect(await news(storage, "payments", [{ id: "p3" }])).toEqual([]);
    expect(storage.snapshot()["news.payments"]).toEqual(["p3", "p1", "p2"]);
  });
  it("takes plain ids and numeric ids, and keys apart", async () => {
    const storage = memoryStorage();
    await news(storage, "a", ["x"]);
    await news(storage, "b", [{ id: 1 }]);
    expect(await news(storage, "a", ["x", "y"])).toEqual(["y"]);
    expect(await news(storage, "b", [{ id: 1 }, { id: 2 }])).toEqual([{ id: 2 }]);
  });
  it("remembers 500 ids, newest first", async () => {
    const storage = memoryStorage();
    await news(
      storage,
      "k",
      Array.from({ length: 500 }, (_, i) => `old${i}`),
    );
    await news(storage, "k", ["new"]);
    const memory = storage.snapshot()["news.k"] as string[];
    expect(memory).toHaveLength(500);
    expect(memory[0]).toBe("new");
    expect(memory).not.toContain("old499");
    expect(await news(storage, "k", ["old498"])).toEqual([]);
    expect(await news(storage, "k", ["old499"])).toEqual(["old499"]);
  });
});

describe("underWay", () => {
  it("tells what started, goes on since when, and finished", async () => {
    const storage = memoryStorage();
    const first = await underWay(storage, "deploys", [{ id: "d1" }, { id: "d2" }], NOW);
    expect(first).toEqual({
      started: [{ id: "d1" }, { id: "d2" }],
      continuing: [],
      finished: [],
      since: { d1: "2025-03-01T09:30:00.000Z", d2: "2025-03-01T09:30:00.000Z" },
    });
    const second = await underWay(storage, "deploys", [{ id: "d2" }, { id: "d3" }], NOW + 60_000);
    expect(second).toEqual({
      started: [{ id: "d3" }],
      continuing: [{ id: "d2" }],
      finished: ["d1"],
      since: { d2: "2025-03-01T09:30:00.000Z", d3: "2025-03-01T09:31:00.000Z" },
    });
    const third = await underWay(storage, "deploys", [], NOW + 120_000);
    expect(third.finished).toEqual(["d2", "d3"]);
    expect(storage.snapshot()["underway.deploys"]).toEqual({});
  });
  it("keeps odd ids as plain keys", async () => {
    const storage = memoryStorage();
    const result = await underWay(storage, "k", ["__proto__"], NOW);
    expect(Object.keys(result.since)).toEqual(["__proto__"]);
    expect((await underWay(storage, "k", ["__proto__"], NOW)).continuing).toEqual(["__proto__"]);
  });
});
