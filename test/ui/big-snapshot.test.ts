/**
 * A page still opens when the first snapshot is larger than the feed's 1 MB unread rule
 * (issue 31: 600 blips made a 1.3 MB snapshot, and every new page was cut). Six extensions at
 * the blip cap with ~3.6 KB blips: 384 blips, ~1.4 MB of snapshot, through the real host,
 * runtime and page.
 */
import { LIMITS } from "@svc/api";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { post, writeExtension } from "../host/harness.js";
import { openUi, useUiScene } from "./harness.js";

const EXTENSIONS = 6;
const PER_EXTENSION = LIMITS.blipsPerExtension;
const TOTAL = EXTENSIONS * PER_EXTENSION;
const code = `module.exports = { default: { async update(ctx) {
  for (let i = 0; i < ${PER_EXTENSION}; i++)
    await ctx.emit({ key: "b" + i, title: "Blip " + i, layout: "stat", data: { value: "x".repeat(3500) } });
} } };`;

const scene = useUiScene({
  setup: (world) =>
    Promise.all(
      Array.from({ length: EXTENSIONS }, (_, n) =>
        writeExtension(join(world.bundled, `big${n}`), { svc: { id: `test.big${n}`, title: `Big ${n}` }, code }),
      ),
    ),
  ready: async (host) => {
    const seen = new Set<string>();
    await host.waitFor(
      (e) => (e.type === "blip" && e.change === "update" && seen.add(e.id as string), seen.size === TOTAL),
      { timeoutMs: 30_000 },
    );
  },
});

describe("a first snapshot over the 1 MB unread rule", () => {
  it("reaches a new page whole, and the page keeps its feed", async () => {
    const latest = new Map<string, unknown>();
    for (const e of scene.host.events) if (e.type === "blip" && e.blip) latest.set(e.id as string, e.blip);
    expect(JSON.stringify([...latest.values()]).length).toBeGreaterThan(1024 * 1024);
    const page = await openUi(scene.world, scene.ui.context);
    const drawn = () => page.locator(".blips [role=listitem]").count();
    expect(await drawn()).toBe(TOTAL);
    // Still connected: a blip pushed now is drawn too.
    expect(
      (await post(scene.world, "/v1/blips", { id: "after", title: "After", layout: "stat", data: { value: 1 } }))
        .status,
    ).toBe(200);
    await page.getByText("After").waitFor();
    expect(await drawn()).toBe(TOTAL + 1);
  });
});
