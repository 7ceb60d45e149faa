/**
 * Focus with @svc/testkit (`svckit test`): the app's own sandbox and processing, the test's
 * clock driving the schedule, the buttons pressed as the notch would.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "@svc/testkit";

const START = "2025-03-03T09:00:00Z";

test("ready: a Start button and the session length from the preferences", async (t) => {
  const ext = await loadExtension(".", { preferences: { minutes: 50 } });
  t.after(() => ext.dispose());
  await ext.run("launch");
  const session = ext.blip("session");
  assert.equal(session?.title, "Focus");
  assert.equal(session?.state, "idle");
  assert.deepEqual(session?.data, { value: { type: "text", value: "Ready: 50:00" } });
  assert.deepEqual(
    session?.actions?.map((a) => a.id),
    ["start"],
  );
});

test("a started session counts down, ends on time with a note, and counts as done", async (t) => {
  const ext = await loadExtension(".", { now: START });
  t.after(() => ext.dispose());
  await ext.run("launch");
  await ext.action("session", "start");
  assert.equal(ext.blip("session")?.layout, "countdown");
  assert.deepEqual(ext.blip("session")?.data, {
    endsAt: "2025-03-03T09:25:00.000Z",
    startedAt: "2025-03-03T09:00:00.000Z",
  });

  // The schedule runs every 15 s; one second before the end nothing has happened yet.
  await ext.clock.advance("24m59s");
  assert.equal(ext.blip("session")?.state, "running");
  assert.deepEqual(ext.host.notifications, []);
  await ext.clock.advance("1s");
  assert.deepEqual(ext.host.notifications, [{ title: "Focus session done", body: "Take a 5 minute break" }]);
  assert.equal(ext.blip("session")?.state, "idle");
  assert.equal(ext.blip("session")?.subtitle, "1 session done today");
});

test("pause keeps the time left however long the pause; resume picks it up", async (t) => {
  const ext = await loadExtension(".", { now: START });
  t.after(() => ext.dispose());
  await ext.run("launch");
  await ext.action("session", "start");
  await ext.clock.advance("10m");
  await ext.action("session", "pause");
  assert.equal(ext.blip("session")?.title, "Focus (paused)");
  assert.deepEqual(ext.blip("session")?.data, { value: { type: "text", value: "15:00 left" } });
  await ext.clock.advance("1h");
  assert.deepEqual(ext.blip("session")?.data, { value: { type: "text", value: "15:00 left" } });
  await ext.action("session", "start");
  assert.deepEqual(ext.blip("session")?.data, {
    endsAt: "2025-03-03T10:25:00.000Z",
    startedAt: "2025-03-03T10:10:00.000Z",
  });
});

test("the count of sessions done starts again the next day", async (t) => {
  const ext = await loadExtension(".", {
    now: "2025-03-03T23:00:00Z",
    storage: { session: { phase: "ready", done: 4, day: "2025-03-03" } },
  });
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal(ext.blip("session")?.subtitle, "4 sessions done today");
  await ext.clock.advance("1h");
  assert.equal(ext.blip("session")?.subtitle, "0 sessions done today");
});
