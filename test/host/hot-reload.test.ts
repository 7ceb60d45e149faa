import { describe, expect, it } from "vitest";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { counterCode, startHost, writeDevLink, writeExtension, useHostWorld } from "./harness.js";

const scene = useHostWorld();

const say = (word: string) =>
  `module.exports = { default: { async update(ctx) { await ctx.emit({ key: "main", title: "Says", layout: "stat", data: { value: "${word}" } }); } } };`;

// The user's extensions here are dev links (what svckit dev makes): an installed folder changed on
// disk is not loaded at all (test/host-trust/ledger.test.ts).
describe("hot reload", () => {
  it("reloads an edited extension once, finds a new folder, unloads a removed one with its blips", async () => {
    const folder = await writeDevLink(scene.world, "talker", {
      svc: { id: "test.talker", title: "Talker" },
      code: say("hello"),
    });
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.talker/main" && e.blip.data.value === "hello");

    // A build writes two files in a burst: one reload, ~200 ms after the last.
    const edit = scene.host.events.length;
    await writeFile(join(folder, "dist", "index.js"), say("changed"));
    await writeFile(join(folder, "dist", "tools.json"), "[]");
    const changed = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "test.talker/main" && e.blip.data.value === "changed",
      { from: edit },
    );
    expect(changed.seq).toBe(2);
    const reloads = scene.host.events.slice(edit).filter((e) => e.type === "extension.loaded");
    expect(reloads).toEqual([{ type: "extension.loaded", id: "test.talker", reason: "reloaded" }]);
    expect(
      scene.host.events
        .slice(edit)
        .filter((e) => e.type === "run.start")
        .map((e) => e.trigger),
    ).toEqual(["launch"]);

    // A source file saved (what an author's editor does under svckit dev): nothing reloads.
    const source = scene.host.events.length;
    await mkdir(join(folder, "src"), { recursive: true });
    await writeFile(join(folder, "src", "index.ts"), "export default {};");
    await writeFile(join(folder, "README.md"), "# Talker");
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(
      scene.host.events.slice(source).filter((e) => e.type === "extension.loaded" || e.type === "extensions"),
    ).toEqual([]);

    // A manifest broken while editing: listed with its error, and the last good one runs on.
    const broken = scene.host.events.length;
    await writeFile(
      join(folder, "package.json"),
      '{"name": "fixture", "version": "1.0.0", "svc": {"id": "test.talker", "title": "Talker", "interval": "1x"}}',
    );
    const error = 'package.json: "svc.interval" should be <n>s, <n>m or <n>h, like 30s or 15m';
    expect(
      await scene.host.waitFor((e) => e.type === "extension.error" && e.id === "test.talker", { from: broken }),
    ).toEqual({
      type: "extension.error",
      id: "test.talker",
      error: `${error} (still running the last good version)`,
    });
    const listing = await scene.host.waitFor((e) => e.type === "extensions", { from: broken });
    expect(listing.broken).toEqual([expect.objectContaining({ id: "test.talker", error })]);
    expect(
      scene.host.events
        .slice(broken)
        .filter((e) => e.type === "extension.unloaded" || (e.type === "blip" && e.change === "remove")),
    ).toEqual([]);
    expect(await scene.host.control({ command: "run", id: "test.talker" })).toMatchObject({ ok: true });
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.talker/main" && e.seq === 3, { from: broken });

    // Fixed again: reloaded with it.
    const fixed = scene.host.events.length;
    await writeExtension(folder, { svc: { id: "test.talker", title: "Talker", interval: "1h" } });
    await scene.host.waitFor(
      (e) => e.type === "extension.loaded" && e.id === "test.talker" && e.reason === "reloaded",
      { from: fixed },
    );

    // A new folder appears: discovered and run.
    const added = scene.host.events.length;
    await writeExtension(join(scene.world.bundled, "newcomer"), {
      svc: { id: "test.newcomer", title: "New" },
      code: counterCode(),
    });
    await scene.host.waitFor(
      (e) => e.type === "extension.loaded" && e.id === "test.newcomer" && e.reason === "discovered",
      { from: added },
    );
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.newcomer/main", { from: added });

    // The folder goes away: unloaded, its blip removed.
    const removed = scene.host.events.length;
    await rm(join(scene.world.bundled, "newcomer"), { recursive: true });
    await scene.host.waitFor((e) => e.type === "extension.unloaded" && e.id === "test.newcomer", { from: removed });
    await scene.host.waitFor((e) => e.type === "blip" && e.change === "remove" && e.id === "test.newcomer/main", {
      from: removed,
    });
  });

  it("switches to a user extension added over a bundled one with the same id, and back when it goes", async () => {
    await writeExtension(join(scene.world.bundled, "shared"), {
      svc: { id: "test.shared", title: "Bundled" },
      code: say("bundled"),
    });
    scene.host = await startHost(scene.world);
    await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "test.shared/main" && e.blip.data.value === "bundled",
    );
    const from = scene.host.events.length;
    await writeDevLink(scene.world, "shared-dev", {
      svc: { id: "test.shared", title: "Mine" },
      code: say("mine"),
    });
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.shared/main" && e.blip.data.value === "mine", {
      from,
    });
    const back = scene.host.events.length;
    await rm(join(scene.world.user, "shared-dev"), { recursive: true });
    await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "test.shared/main" && e.blip.data.value === "bundled",
      { from: back },
    );
    expect(scene.host.events.slice(from).filter((e) => e.type === "extension.unloaded")).toEqual([]);
  });
});
