/**
 * Denials travel as data (issue 32): the runtime sends the sandbox's record
 * (`extension.denied`), and Settings' "Recently refused" lists those records only. An extension
 * that merely logs the words "refused", "denied" or "not allowed" is not listed; one the fence
 * refused is, with the record's own words. Real host, real runtime, the page's real feed.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectFloodClient } from "../../bench/lib/flood-world.mjs";
import { startHost, useHostWorld, webhookInfo, writeExtension } from "./harness.js";

const scene = useHostWorld();

const TALKER = "com.example.talker";
const FENCED = "com.example.fenced";
const REASON = '"denied.example.org" is not in permissions.network';
const FIX = 'add "denied.example.org" to svc.permissions.network in package.json';

describe('"Recently refused"', () => {
  it("lists what the sandbox refused, never a log line that says refused", async () => {
    await writeExtension(join(scene.world.bundled, "talker"), {
      svc: { id: TALKER, title: "Talker" },
      code: `module.exports = { default: { async update(ctx) {
        ctx.log.warn("request refused by the server; fetch denied: not allowed");
        console.error("denied: fetch https://denied.example.org/: refused");
        await ctx.emit({ key: "said", title: "Said", layout: "stat", data: { value: 1 } });
        return {};
      } } };`,
    });
    await writeExtension(join(scene.world.bundled, "fenced"), {
      svc: { id: FENCED, title: "Fenced" },
      code: `module.exports = { default: { async update(ctx) {
        let message = "";
        try { await fetch("https://denied.example.org/x"); } catch (error) { message = String(error.message); }
        await ctx.emit({ key: "tried", title: "Tried", layout: "stat", data: { value: message } });
        return {};
      } } };`,
    });
    scene.host = await startHost(scene.world);
    const host = scene.host;

    // The record as the fence made it, one event on the host's bus (and its line for the terminal).
    const denied = await host.waitFor((e) => e.type === "denied");
    expect(denied).toEqual({
      type: "denied",
      extensionId: FENCED,
      denial: { kind: "fetch", target: "denied.example.org", reason: REASON, fix: FIX, at: expect.any(Number) },
    });
    const line = `denied: fetch denied.example.org: ${REASON}; to allow it, ${FIX}`;
    await host.waitFor((e) => e.type === "log" && e.extensionId === FENCED && e.message === line);
    // Both runs are over: every line the talker logged has been heard by the page's side.
    await host.waitFor((e) => e.type === "blip" && e.id === `${TALKER}/said`);
    await host.waitFor((e) => e.type === "run.end" && e.id === TALKER);
    const said = host.events.filter((e) => e.type === "log" && e.extensionId === TALKER).map((e) => e.message);
    expect(said).toEqual([
      "request refused by the server; fetch denied: not allowed",
      "denied: fetch https://denied.example.org/: refused",
    ]);
    expect(host.events.filter((e) => e.type === "denied").map((e) => e.extensionId)).toEqual([FENCED]);

    const client = await connectFloodClient(await webhookInfo(scene.world));
    try {
      const { snapshot } = await client.next((e: any) => e.type === "snapshot");
      const denialsOf = (id: string) => snapshot.extensions.find((x: any) => x.id === id).denials;
      expect(denialsOf(TALKER)).toEqual([]);
      expect(denialsOf(FENCED)).toEqual([{ at: new Date(denied.denial.at).toISOString(), message: line }]);
    } finally {
      client.close();
    }
  });
});
