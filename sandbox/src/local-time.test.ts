/**
 * Local time around daylight-saving changes: the guest turns local fields into times exactly
 * as Node does under the same TZ (ECMA-262's UTC(t): skipped times move forward, repeated ones
 * take the earlier instant), for the constructor, the local setters and local ISO strings.
 */
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { Sandbox } from "./sandbox.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

/** Days with a change in at least one zone below (2024), every half hour of each. */
const PROBE = `
  const days = [[2024, 2, 10], [2024, 2, 31], [2024, 3, 6], [2024, 3, 7], [2024, 8, 7], [2024, 8, 8], [2024, 9, 6], [2024, 9, 27], [2024, 10, 3]];
  const pad = (n) => String(n).padStart(2, "0");
  const out = [];
  for (const [y, m, d] of days) for (let h = 0; h < 24; h++) for (const mi of [0, 30]) {
    const made = new Date(y, m, d, h, mi);
    const hours = new Date(y, m, d, 12); hours.setHours(h, mi);
    const date = new Date(y, m, d - 1, h, mi); date.setDate(d);
    const month = new Date(y, m - 1, d, h, mi); month.setMonth(m);
    const year = new Date(y - 1, m, d, h, mi); year.setFullYear(y);
    const minutes = new Date(y, m, d, h); minutes.setMinutes(mi);
    out.push([made.getTime(), made.getHours(), hours.getTime(), date.getTime(), month.getTime(), year.getTime(), minutes.getTime(),
      Date.parse(y + "-" + pad(m + 1) + "-" + pad(d) + "T" + pad(h) + ":" + pad(mi)), new Date(y + "-" + pad(m + 1) + "-" + pad(d) + "T" + pad(h) + ":" + pad(mi) + ":00.000").getTime()]);
  }
  return out;
`;

const ZONES = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata"];

async function inGuest(timeZone: string, body: string): Promise<unknown> {
  // ~4,000 conversions: a long slice, so a loaded machine does not interrupt them
  const limits = { sliceMs: 20_000 };
  const sandbox = await Sandbox.create(
    optionsFor(`module.exports = { update() { ${body} } };`, { limits }),
    recorder(),
    { timeZone },
  );
  sandboxes.push(sandbox);
  await sandbox.load();
  return sandbox.invoke(UPDATE);
}

function inNode(timeZone: string, body: string): unknown {
  const run = spawnSync(process.execPath, ["-e", `console.log(JSON.stringify((() => { ${body} })()))`], {
    env: { ...process.env, TZ: timeZone },
    encoding: "utf8",
  });
  return JSON.parse(run.stdout);
}

describe("local time around daylight-saving changes", () => {
  for (const zone of ZONES) {
    it(`${zone}: new Date(fields), the local setters and local ISO strings give Node's times`, async () => {
      expect(await inGuest(zone, PROBE)).toEqual(inNode(zone, PROBE));
    });
  }

  it("the setters read their arguments as ECMA-262: the first always, the others when passed, in order", async () => {
    const seen = await inGuest(
      "America/New_York",
      `const d = new Date(2020, 0, 15, 10);
      let calls = 0, thrown;
      const date = new Date(1970, 0, 1), before = date.getTime();
      try { date.setHours(0, { valueOf() { throw new RangeError("min"); } }, { valueOf() { calls++; } }); } catch (e) { thrown = e.message; }
      return [d.setHours(), d.getTime(), new Date(2020, 0, 15).setMonth(6, undefined), new Date(2020, 0, 15).setMonth(6),
        new Date(NaN).setFullYear(2000), new Date(NaN).setMonth(1), new Date(2020, 0, 15).setHours(1, undefined),
        new Date(2020, 0, 15).setMinutes(5, 6, 7, 8), new Date(2020, 0, 15).setDate(Infinity), thrown, calls, date.getTime() === before];`,
    );
    // Node under TZ=America/New_York gives the same (NaN is null in JSON)
    expect(seen).toEqual([
      null,
      null,
      null,
      1594785600000,
      946702800000,
      null,
      null,
      1579064706007,
      null,
      "min",
      0,
      true,
    ]);
  });

  it("keeps Date's own face: a subclass, Date() as a function, instanceof, statics, an invalid date", async () => {
    const body = `
      class Stamp extends Date { label() { return "stamp"; } }
      const s = new Stamp(2024, 0, 1);
      const invalid = new Date(NaN);
      invalid.setHours(3);
      const reset = new Date(NaN);
      reset.setFullYear(2020);
      return [s.label(), s instanceof Date, s.getFullYear(), typeof Date(), Date.length, Date.name, Date.prototype.constructor === Date,
        new Date(2024, 0, 1) instanceof Date, typeof Date.now(), Date.UTC(2024, 0), new Date(new Date(5)).getTime(), new Date("2024-01-01").getTime(),
        new Date(99, 0).getFullYear(), Number.isNaN(invalid.getTime()), reset.getFullYear(), reset.getHours(), new Date(8.64e15 + 1, 0).getTime()];`;
    expect(await inGuest("Europe/Paris", body)).toEqual([
      "stamp",
      true,
      2024,
      "string",
      7,
      "Date",
      true,
      true,
      "number",
      Date.UTC(2024, 0),
      5,
      Date.UTC(2024, 0, 1),
      1999,
      true,
      2020,
      0,
      null,
    ]);
  });
});
