/**
 * Now Playing with @svc/testkit (`svckit test`): playerctl's runs are replayed from
 * test/recordings (written from playerctl's manual and tests), so these pass on a machine
 * without playerctl and without a player.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "@svc/testkit";

const load = (programs: string) => loadExtension(".", { programs: `test/recordings/${programs}.json` });

test("a playing track: title, artist and album, how far along, and the three controls", async (t) => {
  const ext = await load("playing");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const blip = ext.blip("now-playing");
  assert.equal(blip?.layout, "progress");
  assert.equal(blip?.title, "Slow Tide");
  assert.equal(blip?.subtitle, "The Quiet Hours · Night Lines");
  assert.equal(blip?.state, "running");
  assert.deepEqual(blip?.data, { fraction: 0.305, step: "Spotify · 1:01 of 3:20" });
  assert.deepEqual(
    blip?.actions?.map((a) => [a.id, a.icon]),
    [
      ["previous", "backward.end"],
      ["play-pause", "pause"],
      ["next", "forward.end"],
    ],
  );
  assert.equal(blip?.staleAfter, new Date(ext.clock.now() + 15_000).toISOString());
  // Read again in 5 s while it plays.
  assert.equal(ext.nextRunAt, ext.clock.now() + 5_000);
  assert.deepEqual(ext.denials, []);
});

test("play/pause sends the command, then shows the paused track with a Play button", async (t) => {
  const ext = await load("playing");
  t.after(() => ext.dispose());
  await ext.run("launch");
  await ext.action("now-playing", "play-pause");
  const blip = ext.blip("now-playing");
  assert.equal(blip?.state, "idle");
  assert.deepEqual(blip?.data, { fraction: 0.3125, step: "Spotify · paused · 1:02 of 3:20" });
  assert.equal(blip?.actions?.find((a) => a.id === "play-pause")?.icon, "play");
});

test("no player running: says so and what to start", async (t) => {
  const ext = await load("no-player");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const blip = ext.blip("now-playing");
  assert.equal(blip?.layout, "stat");
  assert.deepEqual(blip?.data, {
    value: "Nothing playing",
    label: "Start a player with MPRIS: Spotify, VLC, Rhythmbox or a browser",
  });
  assert.equal(blip?.actions, undefined);
  assert.equal(ext.nextRunAt, ext.clock.now() + 30_000);
});

test("playerctl not installed: says so and how to install it, and makes nothing up", async (t) => {
  const ext = await load("not-installed");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal(ext.blips.length, 1);
  const blip = ext.blip("now-playing");
  assert.equal(blip?.state, "warning");
  assert.deepEqual(blip?.data, {
    value: "playerctl is not installed",
    label: "Install playerctl (e.g. apt install playerctl) to see what's playing",
  });
});
