/**
 * The iCalendar reader, the recurrence expander and the join-link finder on their own, in Node
 * with the person in Berlin (TZ), against RFC 5545's rules.
 */
process.env.TZ = "Europe/Berlin";
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCalendar, parseDuration, zoneOf } from "../src/ics.js";
import { joinLink } from "../src/links.js";
import { occurrences } from "../src/recurrence.js";

const calendar = (...events: string[]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    ...events.flatMap((e) => ["BEGIN:VEVENT", ...e.trim().split("\n"), "END:VEVENT"]),
    "END:VCALENDAR",
  ].join("\r\n");

const iso = (ms: number) => new Date(ms).toISOString();
const starts = (ics: string, from: string, to: string) =>
  occurrences(parseCalendar(ics), Date.parse(from), Date.parse(to)).map((o) => iso(o.start));

test("folded lines join, TEXT escapes read, properties of a VALARM stay the alarm's", () => {
  const [event] = parseCalendar(
    calendar(`UID:a
DTSTART:20250610T130000Z
SUMMARY:Design review\\, round 2\\; bring notes
DESCRIPTION:Line one\\nLine
  two
BEGIN:VALARM
DESCRIPTION:Reminder
END:VALARM`),
  );
  assert.equal(event?.summary, "Design review, round 2; bring notes");
  assert.equal(event?.description, "Line one\nLine two");
});

test("times: UTC, a TZID in summer, a Windows zone name, a prefixed TZID, floating, all-day", () => {
  const ics = calendar(
    "UID:utc\nDTSTART:20250610T130000Z",
    "UID:berlin\nDTSTART;TZID=Europe/Berlin:20250610T093000",
    'UID:windows\nDTSTART;TZID="W. Europe Standard Time":20250610T093000',
    "UID:mozilla\nDTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20250610T093000",
    "UID:floating\nDTSTART:20250610T160000",
    "UID:day\nDTSTART;VALUE=DATE:20250610",
  );
  const all = occurrences(parseCalendar(ics), Date.parse("2025-06-09T00:00:00Z"), Date.parse("2025-06-12T00:00:00Z"));
  const by = Object.fromEntries(all.map((o) => [o.event.uid, [iso(o.start), iso(o.end), o.allDay]]));
  assert.deepEqual(by, {
    utc: ["2025-06-10T13:00:00.000Z", "2025-06-10T13:00:00.000Z", false],
    berlin: ["2025-06-10T07:30:00.000Z", "2025-06-10T07:30:00.000Z", false],
    windows: ["2025-06-10T07:30:00.000Z", "2025-06-10T07:30:00.000Z", false],
    mozilla: ["2025-06-10T13:30:00.000Z", "2025-06-10T13:30:00.000Z", false],
    floating: ["2025-06-10T14:00:00.000Z", "2025-06-10T14:00:00.000Z", false], // 16:00 on the person's clock
    day: ["2025-06-09T22:00:00.000Z", "2025-06-10T22:00:00.000Z", true], // midnight to midnight, Berlin
  });
  assert.equal(zoneOf("Nowhere/Special"), "floating");
});

test("ends: DTEND, DURATION, and an all-day event over three days", () => {
  const ics = calendar(
    "UID:d\nDTSTART:20250610T130000Z\nDURATION:PT1H30M",
    "UID:trip\nDTSTART;VALUE=DATE:20250610\nDTEND;VALUE=DATE:20250613",
  );
  const [trip, d] = occurrences(
    parseCalendar(ics),
    Date.parse("2025-06-01T00:00:00Z"),
    Date.parse("2025-07-01T00:00:00Z"),
  );
  assert.equal(iso(d!.end), "2025-06-10T14:30:00.000Z");
  assert.equal(iso(trip!.end), "2025-06-12T22:00:00.000Z");
  assert.equal(parseDuration("-PT15M"), -15 * 60_000);
  assert.equal(parseDuration("P2W"), 14 * 86_400_000);
  assert.equal(parseDuration("PT"), undefined);
});

test("weekly on three days, COUNT=5: exactly five, the limit included", () => {
  const ics = calendar("UID:w\nDTSTART:20250602T080000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=5");
  assert.deepEqual(starts(ics, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z"), [
    "2025-06-02T08:00:00.000Z",
    "2025-06-04T08:00:00.000Z",
    "2025-06-06T08:00:00.000Z",
    "2025-06-09T08:00:00.000Z",
    "2025-06-11T08:00:00.000Z",
  ]);
});

test("UNTIL includes an occurrence starting exactly then, and not one a second later", () => {
  const at = calendar("UID:u\nDTSTART:20250602T080000Z\nRRULE:FREQ=DAILY;UNTIL=20250604T080000Z");
  assert.equal(starts(at, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z").length, 3);
  const before = calendar("UID:u\nDTSTART:20250602T080000Z\nRRULE:FREQ=DAILY;UNTIL=20250604T075959Z");
  assert.equal(starts(before, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z").length, 2);
  const date = calendar("UID:u\nDTSTART;VALUE=DATE:20250602\nRRULE:FREQ=DAILY;UNTIL=20250604");
  assert.equal(starts(date, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z").length, 3);
});

test("every other week; monthly on the 2nd Tuesday, the last Friday, the 31st (short months skipped); yearly", () => {
  const fortnight = calendar("UID:f\nDTSTART:20250602T080000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2");
  assert.deepEqual(starts(fortnight, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z"), [
    "2025-06-02T08:00:00.000Z",
    "2025-06-16T08:00:00.000Z",
    "2025-06-30T08:00:00.000Z",
  ]);
  const second = calendar("UID:s\nDTSTART:20250114T150000Z\nRRULE:FREQ=MONTHLY;BYDAY=2TU");
  assert.deepEqual(starts(second, "2025-05-01T00:00:00Z", "2025-08-01T00:00:00Z"), [
    "2025-05-13T15:00:00.000Z",
    "2025-06-10T15:00:00.000Z",
    "2025-07-08T15:00:00.000Z",
  ]);
  const last = calendar("UID:l\nDTSTART:20250131T150000Z\nRRULE:FREQ=MONTHLY;BYDAY=-1FR");
  assert.deepEqual(starts(last, "2025-05-01T00:00:00Z", "2025-07-01T00:00:00Z"), [
    "2025-05-30T15:00:00.000Z",
    "2025-06-27T15:00:00.000Z",
  ]);
  const thirtyFirst = calendar("UID:t\nDTSTART:20250131T150000Z\nRRULE:FREQ=MONTHLY");
  assert.deepEqual(starts(thirtyFirst, "2025-01-01T00:00:00Z", "2025-06-01T00:00:00Z"), [
    "2025-01-31T15:00:00.000Z",
    "2025-03-31T15:00:00.000Z",
    "2025-05-31T15:00:00.000Z",
  ]);
  const birthday = calendar("UID:b\nDTSTART;VALUE=DATE:20200610\nRRULE:FREQ=YEARLY");
  assert.deepEqual(starts(birthday, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z"), ["2025-06-09T22:00:00.000Z"]);
});

test("a daily 09:00 in Berlin stays 09:00 across the change to summer time", () => {
  const ics = calendar("UID:dst\nDTSTART;TZID=Europe/Berlin:20250328T090000\nRRULE:FREQ=DAILY;COUNT=4");
  assert.deepEqual(starts(ics, "2025-03-01T00:00:00Z", "2025-04-30T00:00:00Z"), [
    "2025-03-28T08:00:00.000Z",
    "2025-03-29T08:00:00.000Z",
    "2025-03-30T07:00:00.000Z",
    "2025-03-31T07:00:00.000Z",
  ]);
});

test("EXDATE leaves one out; a RECURRENCE-ID moves one; a cancelled one is gone", () => {
  const ics = calendar(
    "UID:r\nDTSTART;TZID=Europe/Berlin:20250609T093000\nRRULE:FREQ=DAILY;COUNT=4\nEXDATE;TZID=Europe/Berlin:20250610T093000",
    "UID:r\nRECURRENCE-ID;TZID=Europe/Berlin:20250611T093000\nDTSTART;TZID=Europe/Berlin:20250611T110000",
    "UID:r\nRECURRENCE-ID;TZID=Europe/Berlin:20250612T093000\nDTSTART;TZID=Europe/Berlin:20250612T093000\nSTATUS:CANCELLED",
  );
  assert.deepEqual(starts(ics, "2025-06-01T00:00:00Z", "2025-07-01T00:00:00Z"), [
    "2025-06-09T07:30:00.000Z",
    "2025-06-11T09:00:00.000Z",
  ]);
});

test("a rule repeating for years still reaches today, and stops past the window", () => {
  const ics = calendar("UID:old\nDTSTART:20150601T080000Z\nRRULE:FREQ=DAILY");
  assert.deepEqual(starts(ics, "2025-06-10T00:00:00Z", "2025-06-12T00:00:00Z"), [
    "2025-06-10T08:00:00.000Z",
    "2025-06-11T08:00:00.000Z",
  ]);
});

test("ten years of a daily rule in a zone cost a handful of Intl calls, not thousands", () => {
  const ics = calendar("UID:old\nDTSTART;TZID=Europe/Berlin:20150601T090000\nRRULE:FREQ=DAILY");
  const format = Intl.DateTimeFormat.prototype.formatToParts;
  let calls = 0;
  Intl.DateTimeFormat.prototype.formatToParts = function (this: Intl.DateTimeFormat, date?: Date | number) {
    calls++;
    return format.call(this, date);
  };
  try {
    assert.deepEqual(starts(ics, "2025-06-10T00:00:00Z", "2025-06-12T00:00:00Z"), [
      "2025-06-10T07:00:00.000Z",
      "2025-06-11T07:00:00.000Z",
    ]);
  } finally {
    Intl.DateTimeFormat.prototype.formatToParts = format;
  }
  assert.ok(calls <= 20, `${calls} Intl calls`);
});

test("join links: Meet, Zoom and Teams on their own hosts over https only", () => {
  const link = (text: string) => joinLink({ url: "", location: "", extra: [], description: text });
  assert.deepEqual(link("Join: https://meet.google.com/abc-defg-hij."), {
    url: "https://meet.google.com/abc-defg-hij",
    service: "Google Meet",
  });
  assert.equal(link("https://us02web.zoom.us/j/812?pwd=x)")?.url, "https://us02web.zoom.us/j/812?pwd=x");
  assert.equal(link("https://teams.live.com/meet/9312")?.service, "Teams");
  for (const lookalike of [
    "http://meet.google.com/abc",
    "https://meet.google.com.example.net/abc",
    "https://zoom.us.example.net/j/1",
    "https://evil.example/?https://meet.google.com",
    "https://user:pw@meet.google.com/abc",
  ]) {
    assert.equal(link(lookalike), undefined, lookalike);
  }
  // The event's URL property comes before its description.
  assert.equal(
    joinLink({
      url: "https://teams.microsoft.com/l/x",
      location: "",
      extra: [],
      description: "https://meet.google.com/a",
    })?.service,
    "Teams",
  );
});
