/**
 * `SandboxPool({ timeZone })`: the guests' local time is that IANA zone's, whatever the host
 * process's zone, DST included; without it, the process's own.
 */
import { afterAll, describe, expect, it } from "vitest";
import { SandboxPool } from "../threads/pool.js";
import { guestTimeZone } from "./time-zone.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "../sandbox.fixtures.js";

const pools: SandboxPool[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.dispose())));

async function inGuest(options: ConstructorParameters<typeof SandboxPool>[0], body: string): Promise<unknown> {
  const pool = new SandboxPool({ threads: 1, ...options });
  pools.push(pool);
  const sandbox = await pool.create(optionsFor(updateBundle(body)), recorder());
  await sandbox.load();
  return sandbox.invoke(UPDATE);
}

describe("the guest's time zone", () => {
  it("Asia/Tokyo: new Date(0).getHours() is 9, the offset -540", async () => {
    await expect(
      inGuest({ timeZone: "Asia/Tokyo" }, `return [new Date(0).getHours(), new Date(0).getTimezoneOffset()]`),
    ).resolves.toEqual([9, -540]);
  });

  it("America/New_York follows daylight saving time, both ways", async () => {
    const seen = await inGuest(
      { timeZone: "America/New_York" },
      `
      const winter = new Date(Date.UTC(2024, 0, 15, 12));
      const summer = new Date(Date.UTC(2024, 6, 15, 12));
      return [winter.getHours(), summer.getHours(), winter.getTimezoneOffset(), summer.getTimezoneOffset(),
        new Date(2024, 0, 15, 7).toISOString(), new Date(2024, 6, 15, 8).toISOString(), String(winter).includes("GMT-0500")];`,
    );
    expect(seen).toEqual([7, 8, 300, 240, "2024-01-15T12:00:00.000Z", "2024-07-15T12:00:00.000Z", true]);
  });

  it("every local field matches Node's Intl for the same zone", async () => {
    const instant = Date.UTC(2031, 10, 2, 23, 59, 58);
    const seen = (await inGuest(
      { timeZone: "Australia/Adelaide" },
      `
      const d = new Date(${instant});
      return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getDay()];`,
    )) as number[];
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: "Australia/Adelaide",
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    }).formatToParts(instant);
    const get = (type: string) => parts.find((p) => p.type === type)!.value;
    const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday"));
    expect(seen).toEqual([...["year", "month", "day", "hour", "minute", "second"].map((t) => Number(get(t))), weekday]);
  });

  it("answers at the ends of the time range in another zone (the sandbox once crashed: Invalid time value)", async () => {
    const seen = await inGuest(
      { timeZone: "America/New_York" },
      `const last = new Date(8.64e15), first = new Date(-8.64e15);
      return [last.getTimezoneOffset(), first.getTimezoneOffset(), last.getHours(), first.getHours(), first.getDay(),
        new Date(8.64e15).setMonth(9), new Date(8.64e15 - 1).getFullYear()];`,
    );
    // Node under TZ=America/New_York: 240, 296 (local mean time, -4:56:02), 20, 19, 1, NaN, 275760
    expect(seen).toEqual([240, 296, 20, 19, 1, null, 275760]);
  });

  it("Date's toString and toTimeString end with the zone's name, as V8's", async () => {
    const seen = await inGuest(
      { timeZone: "Asia/Tokyo" },
      `return [String(new Date(2024, 6, 15, 8)), new Date(2024, 0, 15, 8).toTimeString(), new Date(NaN).toString()];`,
    );
    expect(seen).toEqual([
      "Mon Jul 15 2024 08:00:00 GMT+0900 (Japan Standard Time)",
      "08:00:00 GMT+0900 (Japan Standard Time)",
      "Invalid Date",
    ]);
  });

  it("without the option, the guest uses the process's zone", async () => {
    await expect(inGuest({}, `return new Date(86400000 * 200).getHours()`)).resolves.toBe(
      new Date(86400000 * 200).getHours(),
    );
  });

  it("an unknown zone is refused when the pool is made, with an example of a good one", () => {
    expect(() => new SandboxPool({ timeZone: "Mars/Olympus" })).toThrow(
      new RangeError(
        `timeZone "Mars/Olympus" is not an IANA time zone this Node knows, such as "Europe/London" or "UTC"`,
      ),
    );
  });
});

describe("guestTimeZone", () => {
  const processZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const otherZone = processZone === "Asia/Tokyo" ? "Europe/Oslo" : "Asia/Tokyo";

  it("is undefined for the process's own zone: guests keep the host's clock functions", () => {
    expect(guestTimeZone(processZone)).toBeUndefined();
    expect(guestTimeZone(processZone.toLowerCase())).toBeUndefined();
  });

  it("is the zone's canonical name for any other zone, and refuses an unknown one", () => {
    expect(guestTimeZone(otherZone.toLowerCase())).toBe(otherZone);
    expect(() => guestTimeZone("Mars/Olympus")).toThrow(
      'timeZone "Mars/Olympus" is not an IANA time zone this Node knows, such as "Europe/London" or "UTC"',
    );
  });

  it("gives guests the process's zone when a pool set to another is configured back to it", async () => {
    const pool = new SandboxPool({ threads: 1, timeZone: otherZone });
    try {
      pool.configure({ timeZone: processZone });
      const sandbox = await pool.create(
        optionsFor(updateBundle(`return Intl.DateTimeFormat().resolvedOptions().timeZone`)),
        recorder(),
      );
      await sandbox.load();
      await expect(sandbox.invoke(UPDATE)).resolves.toBe(processZone);
    } finally {
      await pool.dispose();
    }
  });
});
