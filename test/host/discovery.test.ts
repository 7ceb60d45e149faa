import { describe, expect, it } from "vitest";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { counterCode, startHost, writeExtension, useHostWorld } from "./harness.js";

const scene = useHostWorld();

const tool = { id: "shout", title: "Shout", icon: "speaker" };

describe("discovery", () => {
  it("lists bundled and user extensions, lets a user one override a bundled one, lists broken ones with their error", async () => {
    await writeExtension(join(scene.world.bundled, "alpha"), {
      svc: { id: "test.alpha", title: "Alpha" },
      code: counterCode(),
      tools: [tool, { id: "bad tool", title: "Bad", icon: "x" }],
    });
    await writeExtension(join(scene.world.bundled, "beta"), {
      svc: { id: "test.beta", title: "Beta (bundled)" },
      code: counterCode(),
    });
    await writeExtension(join(scene.world.user, "beta-dev"), {
      svc: { id: "test.beta", title: "Beta (mine)" },
      code: `module.exports = { default: { async update(ctx) { await ctx.emit({ key: "main", title: "Mine", layout: "stat", data: { value: "user" } }); } } };`,
    });
    await writeExtension(join(scene.world.user, "too-fast"), {
      svc: { id: "test.fast", title: "Fast", interval: "5s" },
      code: counterCode(),
    });
    await writeExtension(join(scene.world.user, "not-json"), {
      svc: {},
      rawPackageJson: "{ nope",
      code: counterCode(),
    });
    await writeExtension(join(scene.world.user, "unbuilt"), { svc: { id: "test.unbuilt", title: "Unbuilt" } });
    // A dev-linked extension: a symlink in Extensions/ to a folder elsewhere.
    const elsewhere = await writeExtension(join(scene.world.root, "dev", "gamma"), {
      svc: { id: "test.gamma", title: "Gamma" },
      code: counterCode(),
    });
    await symlink(elsewhere, join(scene.world.user, "gamma-link"));
    await mkdir(join(scene.world.user, ".hidden"), { recursive: true });

    scene.host = await startHost(scene.world);
    const listing = await scene.host.waitFor((e) => e.type === "extensions");
    expect(listing.active.map((e: any) => [e.id, e.source, e.title])).toEqual([
      ["test.alpha", "bundled", "Alpha"],
      ["test.beta", "user", "Beta (mine)"],
      ["test.gamma", "user", "Gamma"],
    ]);
    expect(listing.active[0].tools).toEqual(["shout"]);
    expect(listing.active[0].error).toBe('dist/tools.json [1]: "id" should be 1–64 letters, digits, - or _');
    expect(listing.overridden.map((e: any) => [e.id, e.source])).toEqual([["test.beta", "bundled"]]);
    const broken = Object.fromEntries(listing.broken.map((e: any) => [e.id, e.error]));
    expect(broken).toEqual({
      "not-json": expect.stringMatching(/^package\.json is not JSON: /),
      "test.fast": 'package.json: "svc.interval" should be at least 10s',
      "test.unbuilt": "dist/index.js is missing: build the extension with `svckit build`",
    });

    // The user's copy is the one that runs.
    const blip = await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.beta/main");
    expect(blip.blip.data.value).toBe("user");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.gamma/main");
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.alpha/main");
    expect(
      scene.host.events
        .filter((e) => e.type === "extension.loaded")
        .map((e) => e.id)
        .sort(),
    ).toEqual(["test.alpha", "test.beta", "test.gamma"]);
  });
});
