/**
 * A blip whose extension's last run failed is marked in the page (Debian's Chromium against the
 * real host and runtime): its figures are from an earlier run. The terminal's mark is
 * host/src/display/format.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeExtension } from "../host/harness.js";
import { openUi, useUiScene } from "./harness.js";

/** Shows a figure on its first run; every later run fails before it can say anything newer. */
const FAILING = `module.exports = { default: {
  async update(ctx) {
    const runs = ((await ctx.storage.get("runs")) ?? 0) + 1;
    await ctx.storage.set("runs", runs);
    if (runs === 1) {
      await ctx.emit({ key: "main", title: "Count", layout: "stat", data: { value: 3 } });
      return { nextRunAfter: 10 };
    }
    throw new Error("the API is down");
  },
} };`;

const scene = useUiScene({
  setup: async (world) => {
    await writeExtension(join(world.bundled, "counter"), {
      svc: { id: "com.example.count", title: "Count" },
      code: FAILING,
    });
    await writeExtension(join(world.bundled, "calm"), {
      svc: { id: "com.example.calm", title: "Calm" },
      code: `module.exports = { default: { async update(ctx) { await ctx.emit({ key: "main", title: "Calm", layout: "stat", data: { value: 1 } }); } } };`,
    });
  },
  ready: (host) =>
    Promise.all([
      host.waitFor((e) => e.type === "blip" && e.id === "com.example.calm/main", { timeoutMs: 20_000 }),
      host.waitFor((e) => e.type === "run.end" && e.id === "com.example.count" && e.result === "failed", {
        timeoutMs: 40_000,
      }),
    ]),
});

describe("a blip whose extension's last run failed", () => {
  it("is marked in the page; a blip of an extension whose run went fine is not", async () => {
    const page = await openUi(scene.world, scene.ui.context);
    const mark = page.locator('[data-blip="com.example.count/main"] .run-failed');
    await mark.waitFor();
    expect(await mark.textContent()).toBe("last run failed");
    expect(await page.locator('[data-blip="com.example.calm/main"] .run-failed').count()).toBe(0);
    await page.close();
  });
});
