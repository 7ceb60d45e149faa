/**
 * Next Meeting with @svc/testkit: a calendar served as Google serves a secret iCal address
 * (test/recordings, from RFC 5545 and Google's export), the person in Berlin, Tuesday 10 June
 * 2025; and .ics files in a real ~/Calendars (HOME pointed at a temporary folder).
 */
import assert from "node:assert/strict";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { loadExtension, type LoadOptions } from "@svc/testkit";

const SERVER = "https://calendar.google.com";
const SECRET = "https://calendar.google.com/calendar/ical/ann%40example.com/private-0123456789abcdef/basic.ics";
const BERLIN: LoadOptions = { timeZone: "Europe/Berlin", now: "2025-06-10T07:00:00Z" }; // 09:00 in Berlin

async function meeting(t: { after(fn: () => Promise<void>): void }, options: LoadOptions) {
  const ext = await loadExtension(".", { ...BERLIN, ...options });
  t.after(() => ext.dispose());
  return ext;
}

const secret = { preferences: { server: SERVER, address: SECRET } };

test("a countdown to the stand-up with its Meet link to join, and what is left of today", async (t) => {
  const ext = await meeting(t, { ...secret, recording: "test/recordings/google-secret.json" });
  const { nextRunAfter } = await ext.run("launch");
  const next = ext.blip("next");
  assert.equal(next?.layout, "countdown");
  assert.equal(next?.title, "Stand-up");
  assert.equal(next?.subtitle, "9:30 AM–9:45 AM · Google Meet");
  assert.equal(next?.state, "idle"); // 30 minutes ahead
  assert.equal(next?.icon, "video");
  assert.deepEqual(next?.data, { endsAt: "2025-06-10T07:30:00.000Z" });
  assert.equal(next?.url, "https://meet.google.com/abc-defg-hij");
  assert.deepEqual(next?.actions, [
    { id: "join", title: "Join", icon: "video", role: "primary", url: "https://meet.google.com/abc-defg-hij" },
  ]);
  // Asked again within the interval (it is 20 minutes until the stand-up is "soon").
  assert.equal(nextRunAfter, 300);

  const today = ext.blip("today");
  const items = (
    today?.data as { items: { title: string; subtitle: string; actions?: { url: string }[] }[]; total: number }
  ).items;
  assert.deepEqual(
    items.map((i) => [i.title, i.subtitle, i.actions?.[0]?.url]),
    [
      ["Bo out of office", "All day", undefined],
      ["Stand-up", "9:30 AM–9:45 AM", "https://meet.google.com/abc-defg-hij"],
      // 13:00 UTC is 15:00 in Berlin; the escaped comma and semicolon read as written.
      [
        "Design review, round 2",
        "3:00 PM–4:00 PM · Room 4; 2nd floor",
        "https://us02web.zoom.us/j/81234567890?pwd=Qk1a2b3c",
      ],
      // A floating time is the person's own clock; the cancelled retro is not there.
      ["1:1 with Bo", "4:00 PM–4:30 PM", "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NjQ0%40thread.v2/0"],
    ],
  );
  assert.equal((today?.data as { total: number }).total, 4);
  assert.deepEqual(ext.denials, []);
});

test("during the stand-up: a countdown to its end, then the next event once it is over", async (t) => {
  const ext = await meeting(t, { ...secret, recording: "test/recordings/google-secret.json" });
  await ext.run("launch");
  // Ten minutes before, and not eleven: the stand-up is what we are waiting on. The schedule
  // runs at that moment by itself (07:05, 07:10, 07:15, then 07:20 exactly).
  await ext.clock.advanceTo("2025-06-10T07:19:00Z");
  assert.equal(ext.blip("next")?.state, "idle");
  await ext.clock.advanceTo("2025-06-10T07:20:00Z");
  assert.equal(ext.blip("next")?.state, "waiting");
  assert.equal(ext.nextRunAt, Date.parse("2025-06-10T07:25:00Z")); // no more than the interval
  await ext.clock.advanceTo("2025-06-10T07:35:00Z");
  const now = ext.blip("next");
  assert.equal(now?.state, "running");
  assert.equal(now?.subtitle, "until 9:45 AM · Google Meet");
  assert.deepEqual(now?.data, { endsAt: "2025-06-10T07:45:00.000Z", startedAt: "2025-06-10T07:30:00.000Z" });
  await ext.clock.advanceTo("2025-06-10T07:46:00Z");
  assert.equal(ext.blip("next")?.title, "Design review, round 2");
});

test("repeats: Wednesday's stand-up moved to 10:00, Thursday's left out by its EXDATE", async (t) => {
  const ext = await meeting(t, {
    ...secret,
    now: "2025-06-10T20:00:00Z",
    recording: "test/recordings/google-secret.json",
  });
  await ext.run();
  assert.equal(ext.blip("next")?.title, "Stand-up (moved)");
  assert.deepEqual(ext.blip("next")?.data, { endsAt: "2025-06-11T08:00:00.000Z" });
  // Left today: only Bo's day off, until midnight in Berlin.
  assert.deepEqual(
    (ext.blip("today")?.data as { items: { title: string; state: string }[] }).items.map((i) => [i.title, i.state]),
    [["Bo out of office", "running"]],
  );
  await ext.clock.advanceTo("2025-06-11T08:20:00Z");
  // Thursday's is excepted: the next stand-up is Friday's, 09:30 Berlin.
  assert.deepEqual(ext.blip("next")?.data, { endsAt: "2025-06-13T07:30:00.000Z" });
  assert.equal(ext.blip("next")?.subtitle, "Fri 9:30 AM–9:45 AM · Google Meet");
});

test("the calendar is fetched at most every 15 minutes; a manual run fetches again", async (t) => {
  // One recorded answer, served again: a fetch past the limit would not fail, so count them.
  const ext = await meeting(t, { ...secret, recording: "test/recordings/google-secret.json" });
  await ext.run("launch");
  const fetchedAt = () => (ext.storage.get("remote") as Promise<{ fetchedAt: number }>).then((r) => r.fetchedAt);
  const first = await fetchedAt();
  await ext.clock.advance("5m");
  assert.equal(await fetchedAt(), first);
  await ext.clock.advance("10m");
  assert.equal(await fetchedAt(), first + 15 * 60_000);
  await ext.clock.advance("1m");
  await ext.run("manual");
  assert.equal(await fetchedAt(), first + 16 * 60_000);
});

test("the secret address must lie on the server the person allowed", async (t) => {
  const ext = await meeting(t, {
    preferences: { server: SERVER, address: "webcal://outlook.office365.com/owa/calendar/abc/reachcalendar.ics" },
  });
  await ext.run();
  assert.deepEqual(ext.blip("next")?.data, {
    value: { type: "text", value: "Can't read the calendar" },
    label:
      "The calendar address is not on https://calendar.google.com: set Calendar server to https://outlook.office365.com",
  });
  assert.deepEqual(ext.denials, []);
});

test("a secret address with no server allowed says which server to set", async (t) => {
  const ext = await meeting(t, { preferences: { address: SECRET } });
  await ext.run();
  assert.equal(
    (ext.blip("next")?.data as { label: string }).label,
    "Set Calendar server to https://calendar.google.com, then allow it",
  );
});

test("a server with no calendar address asks for the secret one", async (t) => {
  const ext = await meeting(t, { preferences: { server: SERVER } });
  await ext.run();
  assert.equal((ext.blip("next")?.data as { label: string }).label, "Add your calendar's secret address in Settings");
});

test("an address that was reset (404) says so, and to check the settings", async (t) => {
  const ext = await meeting(t, { ...secret, recording: "test/recordings/google-gone.json" });
  await ext.run();
  assert.equal(ext.blip("next")?.state, "failure");
  assert.deepEqual(ext.blip("next")?.data, {
    value: { type: "text", value: "Not found" },
    label: "Check the settings",
  });
});

test("unavailable: waits the Retry-After; offline: backs off; then the calendar, and today's list kept meanwhile", async (t) => {
  const ext = await meeting(t, { ...secret, recording: "test/recordings/google-unreachable.json" });
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 300 });
  assert.deepEqual(ext.blip("next")?.data, {
    value: { type: "text", value: "Service unavailable (503)" },
    label: "Trying again in 5m",
  });
  await ext.clock.advance("5m");
  assert.equal(ext.blip("next")?.icon, "wifi.slash");
  assert.equal(await ext.storage.get("svc.failures"), 2);
  const wait = (ext.nextRunAt! - ext.clock.now()) / 1000;
  assert.ok(wait >= 30 && wait <= 60, String(wait)); // backoff(1) from 30 s
  await ext.clock.advance("1m");
  assert.equal(ext.blip("next")?.title, "Stand-up");
  assert.equal(await ext.storage.get("svc.failures"), undefined);
});

test("no calendar at all: one blip that says what to set, and no file touched", async (t) => {
  const ext = await meeting(t, {});
  await ext.run();
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.meeting/next"],
  );
  assert.deepEqual(ext.blip("next")?.data, {
    value: { type: "text", value: "No calendar" },
    label: "Set your calendar's address in Settings, or turn on ~/Calendars",
  });
  assert.deepEqual(ext.denials, []);
});

/** A home of the test's own, so ~/Calendars is a real folder the test controls. */
async function homeFor(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "svc-meeting-home-"));
  const previous = process.env.HOME;
  process.env.HOME = home;
  t.after(async () => {
    process.env.HOME = previous;
    await rm(home, { recursive: true, force: true });
  });
  return home;
}

test("~/Calendars turned on but missing: says to make it", async (t) => {
  await homeFor(t);
  const ext = await meeting(t, { preferences: { folder: true } });
  await ext.run();
  assert.deepEqual(ext.blip("next")?.data, {
    value: { type: "text", value: "Can't read the calendar" },
    label: "Make the folder ~/Calendars and put .ics files in it",
  });
});

test(".ics files in ~/Calendars: read, and read again when they change", async (t) => {
  const home = await homeFor(t);
  await mkdir(join(home, "Calendars"));
  const ext = await meeting(t, { preferences: { folder: true } });
  await ext.run("launch");
  assert.deepEqual((ext.blip("next")?.data as { value: unknown }).value, { type: "text", value: "Nothing ahead" });
  await copyFile(resolve("test/calendars/team.ics"), join(home, "Calendars", "team.ics"));
  await ext.event({ type: "file", paths: [join(home, "Calendars", "team.ics")] });
  assert.equal(ext.blip("next")?.title, "Stand-up");
  assert.equal((ext.blip("today")?.data as { total: number }).total, 4);
  assert.deepEqual(ext.denials, []);
});
