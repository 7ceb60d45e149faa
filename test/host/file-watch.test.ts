import { describe, expect, it } from "vitest";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startHost, writeExtension, useHostWorld } from "./harness.js";

const scene = useHostWorld();

const echoPaths = `module.exports = { default: {
  async onEvent(ctx, event) {
    await ctx.emit({ key: "files", title: "Files", layout: "stat", data: { value: event.type + ": " + event.paths.map((p) => p.split("/").pop()).join(",") } });
  },
} };`;

describe("file-watch triggers", () => {
  it("delivers changes under a watched path as one batched file event (~ expanded)", async () => {
    const notes = join(scene.world.userHome, "notes");
    await mkdir(notes, { recursive: true });
    await writeExtension(join(scene.world.bundled, "watcher"), {
      svc: {
        id: "test.watcher",
        title: "Watcher",
        triggers: { watch: ["~/notes"] },
        permissions: { files: ["~/notes"] },
      },
      code: echoPaths,
    });
    scene.host = await startHost(scene.world);
    const watching = await scene.host.waitFor(
      (e) => e.type === "watching" && e.what === "files" && e.id === "test.watcher",
    );
    expect(watching.paths).toEqual([notes]);

    await writeFile(join(notes, "a.md"), "one");
    await writeFile(join(notes, "b.md"), "two");
    const sent = await scene.host.waitFor((e) => e.type === "event.sent" && e.id === "test.watcher");
    expect(sent).toEqual({
      type: "event.sent",
      id: "test.watcher",
      event: "file",
      paths: [join(notes, "a.md"), join(notes, "b.md")],
    });
    const blip = await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.watcher/files");
    expect(blip.blip.data.value).toBe("file: a.md,b.md");
  });

  it("refuses a watch path that permissions.files does not cover, and watches nothing for it", async () => {
    const outside = join(scene.world.root, "outside");
    await mkdir(outside, { recursive: true });
    await writeExtension(join(scene.world.bundled, "nosy"), {
      svc: { id: "test.nosy", title: "Nosy", triggers: { watch: [outside] }, permissions: { files: ["~/notes"] } },
      code: echoPaths,
    });
    scene.host = await startHost(scene.world);
    const listing = await scene.host.waitFor((e) => e.type === "extensions");
    expect(listing.broken).toEqual([
      expect.objectContaining({
        id: "test.nosy",
        error: `package.json: "svc.triggers.watch.0" should also be in permissions.files: add "${outside}" to svc.permissions.files`,
      }),
    ]);
    await writeFile(join(outside, "x"), "x");
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      scene.host.events.filter((e) => e.type === "event.sent" || (e.type === "watching" && e.what === "files")),
    ).toEqual([]);
  });
});
