import { describe, expect, it } from "vitest";
import { OPEN_REQUESTS_MAX, Store } from "./store.js";
import type { Snapshot, UiBlip } from "../wire.js";

const blip = (id: string, seq: number, extra: Partial<UiBlip> = {}): UiBlip => ({
  id,
  seq,
  source: "extension",
  ended: false,
  title: id,
  ...extra,
});
const snapshot = (blips: UiBlip[]): Snapshot => ({
  blips,
  extensions: [],
  settings: {
    openOn: "hover",
    hoverDelayMs: 300,
    display: "primary",
    hideInFullscreen: true,
    reduceMotion: "system",
    workingHours: null,
    mayPop: {},
  },
  paused: false,
  onBattery: false,
  secretsAvailable: true,
});

describe("Store", () => {
  it("keeps a blip's place when it updates and drops it on remove", () => {
    const store = new Store();
    store.apply({ type: "snapshot", snapshot: snapshot([blip("e/a", 1), blip("e/b", 1)]) });
    store.apply({ type: "blip", change: "update", id: "e/a", blip: blip("e/a", 2, { title: "new" }) });
    expect(store.ordered().map((b) => [b.id, b.title])).toEqual([
      ["e/a", "new"],
      ["e/b", "e/b"],
    ]);
    store.apply({ type: "blip", change: "remove", id: "e/a" });
    expect(store.ordered().map((b) => b.id)).toEqual(["e/b"]);
  });

  it("knows the machine is on battery from the snapshot and each power event", () => {
    const store = new Store();
    store.apply({ type: "snapshot", snapshot: { ...snapshot([]), onBattery: true } });
    expect(store.onBattery).toBe(true);
    store.apply({ type: "power", onBattery: false });
    expect(store.onBattery).toBe(false);
  });

  it("a fresh snapshot replaces what was missed", () => {
    const store = new Store();
    store.apply({ type: "snapshot", snapshot: snapshot([blip("e/a", 1), blip("e/b", 1)]) });
    store.apply({ type: "snapshot", snapshot: snapshot([blip("e/b", 3), blip("e/c", 1)]) });
    expect(store.ordered().map((b) => [b.id, b.seq])).toEqual([
      ["e/b", 3],
      ["e/c", 1],
    ]);
  });

  it("an update with the answer's seq brings a dismissed row back", () => {
    const store = new Store();
    store.apply({ type: "snapshot", snapshot: snapshot([blip("e/l", 1)]) });
    store.dismissed.dismiss("e/l", "row", 1);
    store.dismissed.answered("e/l", "row", { "e/l": 2 });
    store.apply({ type: "blip", change: "update", id: "e/l", blip: blip("e/l", 2) });
    expect(store.dismissed.isDismissed("e/l", "row")).toBe(false);
  });

  it(`keeps the last ${OPEN_REQUESTS_MAX} pages extensions asked to open`, () => {
    const store = new Store();
    for (let i = 0; i < OPEN_REQUESTS_MAX + 2; i++) store.apply({ type: "openURL", url: `https://e.example/${i}` });
    expect(store.openRequests.map((r) => r.url)).toEqual([
      "https://e.example/2",
      "https://e.example/3",
      "https://e.example/4",
    ]);
  });

  it("takes agents' waiting file requests from the snapshot (a reload) and replaces them with each agentFiles event", () => {
    const request = {
      id: "r1",
      agent: "a 1",
      tool: "e/t",
      toolTitle: "T",
      extensionTitle: "E",
      action: "go",
      actionTitle: "Go",
      files: ["/f"],
      values: "{}",
      expiresAt: 1,
    };
    const store = new Store();
    store.apply({ type: "snapshot", snapshot: snapshot([]) });
    expect(store.agentFiles).toEqual([]);
    store.apply({ type: "snapshot", snapshot: { ...snapshot([]), agentFiles: [request] } });
    expect(store.agentFiles).toEqual([request]);
    store.apply({ type: "agentFiles", waiting: [request, { ...request, id: "r2" }] });
    expect(store.agentFiles.map((r) => r.id)).toEqual(["r1", "r2"]);
    store.apply({ type: "agentFiles", waiting: [] });
    expect(store.agentFiles).toEqual([]);
  });
});
