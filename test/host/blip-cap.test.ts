/**
 * One extension cannot bury the others: at most `LIMITS.blipsPerExtension` live blips each,
 * through the real svc-runtime and svc-host. The blip past the cap is not stored and says why,
 * on the host's log and on the extension's log stream (`svckit dev` reads it there).
 */
import { LIMITS } from "@svc/api";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHost, useHostWorld, webhookInfo, writeExtension } from "./harness.js";

const scene = useHostWorld();
const ID = "test.many";
const cap = LIMITS.blipsPerExtension;

describe("the cap on an extension's blips", () => {
  it("stores its blips up to the cap, drops the one past it with a warning, and takes a new one once one is removed", async () => {
    expect(cap).toBe(64);
    await writeExtension(join(scene.world.bundled, "many"), {
      svc: { id: ID, title: "Many" },
      code: `
const stat = (key) => ({ key, title: key, layout: "stat", data: { value: 1 } });
module.exports = { default: { async update(ctx) {
  if (ctx.trigger.type === "launch") {
    for (let i = 0; i <= ${cap}; i++) await ctx.emit(stat("k" + i));
    // An update of a live blip is never refused.
    await ctx.emit({ ...stat("k0"), data: { value: 2 } });
  } else {
    await ctx.remove("k1");
    await ctx.emit(stat("k${cap}"));
  }
} } };`,
    });
    scene.host = await startHost(scene.world);
    const host = scene.host;
    const message = `dropped blip ${ID}/k${cap}: ${ID} already has ${cap} blips, the most one extension may have is ${cap}: remove one first (ctx.remove), or reuse a key`;
    expect(await host.waitFor((e) => e.type === "log" && e.level === "warn" && e.extensionId === ID)).toEqual({
      type: "log",
      level: "warn",
      extensionId: ID,
      message,
    });
    await host.waitFor((e) => e.type === "blip" && e.id === `${ID}/k0` && e.blip?.data?.value === 2);
    const stored = () => new Set(host.events.filter((e) => e.type === "blip").map((e) => e.id as string));
    expect(stored().size).toBe(cap);
    expect(stored().has(`${ID}/k${cap - 1}`)).toBe(true);
    expect(stored().has(`${ID}/k${cap}`)).toBe(false);

    // The same line is on the extension's log stream.
    const { port, token } = await webhookInfo(scene.world);
    const controller = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${port}/v1/logs?extension=${ID}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("dropped blip")) text += (await reader.read()).value;
    controller.abort();
    const line = text.split("\n").find((l) => l.includes("dropped blip"))!;
    expect(JSON.parse(line)).toMatchObject({ type: "log", extensionId: ID, level: "warn", message });

    const from = host.events.length;
    await host.control({ command: "run", id: ID });
    await host.waitFor((e) => e.type === "blip" && e.id === `${ID}/k${cap}`, { from });
    expect(host.events.slice(from).some((e) => e.type === "blip" && e.change === "remove" && e.id === `${ID}/k1`)).toBe(
      true,
    );
  });
});
