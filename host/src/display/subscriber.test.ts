import { describe, expect, it } from "vitest";
import type { BlipView, HostEvent } from "../events/index.js";
import type { Display } from "./display.js";
import { displaySubscriber } from "./subscriber.js";

const from = { name: "CI" };
const view = (id: string, title: string): BlipView => ({ id, title, seq: 1, ended: false, from });

/** A display that records what it was asked to draw. */
function recording(): Display & { shown: string[]; panels: string[][] } {
  const shown: string[] = [];
  const panels: string[][] = [];
  return {
    shown,
    panels,
    show: (event) => void shown.push(event.type),
    blips: (blips) => void panels.push(blips.map((b) => `${b.id}:${b.title}`)),
    dispose: () => {},
  };
}

describe("displaySubscriber", () => {
  it("shows every event and keeps the panel from the blip events' views, in arrival order", () => {
    const display = recording();
    const hear = displaySubscriber(display);
    const events: HostEvent[] = [
      { type: "blips.restored", blips: [view("a.b/one", "One")] },
      { type: "started", supportFolder: "/tmp/svc", clock: "system" },
      { type: "blip", change: "update", id: "a.b/two", blip: view("a.b/two", "Two") },
      { type: "blip", change: "update", id: "a.b/one", blip: view("a.b/one", "One again") },
      { type: "log", level: "info", message: "not a panel change" },
      { type: "blip", change: "remove", id: "a.b/one", blip: view("a.b/one", "One again") },
    ];
    for (const event of events) hear(event);
    expect(display.shown).toEqual(["blips.restored", "started", "blip", "blip", "log", "blip"]);
    expect(display.panels).toEqual([
      ["a.b/one:One"],
      ["a.b/one:One"],
      ["a.b/one:One", "a.b/two:Two"],
      ["a.b/one:One again", "a.b/two:Two"],
      ["a.b/two:Two"],
    ]);
  });
});
