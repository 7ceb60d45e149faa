/**
 * A pool started before its settings are known (the runtime starts its threads with the process;
 * `initialize` brings the person's time zone and locale): `configure` hands them to threads
 * already warm, and no sandbox ever gets a spare made for the old zone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SandboxPool } from "./pool.js";
import { sleep, spareReady } from "./spare.fixtures.js";
import { UPDATE, optionsFor, recorder, updateBundle } from "../sandbox.fixtures.js";

/** Local hour of the epoch and the default locale's way of writing 1234.5, as the guest sees them. */
const LOCAL_VIEW = updateBundle(
  `return { hour: new Date(0).getHours(), number: (1234.5).toLocaleString(), zone: Intl.DateTimeFormat().resolvedOptions().timeZone }`,
);

let pool: SandboxPool;
afterEach(() => pool.dispose());

async function guestView(target: SandboxPool): Promise<unknown> {
  const sandbox = await target.create(optionsFor(LOCAL_VIEW), recorder());
  try {
    await sandbox.load();
    return await sandbox.invoke(UPDATE);
  } finally {
    await sandbox.dispose();
  }
}

describe("SandboxPool.configure", () => {
  it("gives warm threads the new time zone and locale; the spare made for the old zone is made again", async () => {
    pool = new SandboxPool({ threads: 1, timeZone: "UTC", locale: "en-US" });
    await pool.warm();
    await spareReady(pool); // made for UTC
    pool.configure({ timeZone: "Asia/Tokyo", locale: "de-DE" });
    await expect(guestView(pool)).resolves.toEqual({ hour: 9, number: "1.234,5", zone: "Asia/Tokyo" });
    await spareReady(pool);
    await expect(guestView(pool)).resolves.toEqual({ hour: 9, number: "1.234,5", zone: "Asia/Tokyo" });
  });

  it("reaches threads that are still starting up", async () => {
    pool = new SandboxPool({ threads: 2, timeZone: "UTC" });
    const warming = pool.warm();
    await sleep(20); // both threads spawned (the wasm module is compiled by now), neither warm yet
    pool.configure({ timeZone: "America/New_York" });
    await warming;
    const views = await Promise.all([guestView(pool), guestView(pool), guestView(pool)]);
    for (const view of views) expect(view).toMatchObject({ hour: 19, zone: "America/New_York" });
  });

  it("applies to threads started after it", async () => {
    pool = new SandboxPool({ threads: 1, timeZone: "UTC" });
    pool.configure({ timeZone: "Asia/Tokyo" });
    await expect(guestView(pool)).resolves.toMatchObject({ hour: 9, zone: "Asia/Tokyo" });
  });

  it("refuses an unknown zone or locale with a RangeError and changes nothing", async () => {
    pool = new SandboxPool({ threads: 1, timeZone: "Asia/Tokyo", locale: "de-DE" });
    await pool.warm();
    expect(() => pool.configure({ timeZone: "Mars/Olympus" })).toThrow(RangeError);
    expect(() => pool.configure({ timeZone: "UTC", locale: "not a locale!" })).toThrow(RangeError);
    await expect(guestView(pool)).resolves.toEqual({ hour: 9, number: "1.234,5", zone: "Asia/Tokyo" });
  });
});
