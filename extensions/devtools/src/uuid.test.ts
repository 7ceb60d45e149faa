import { describe, expect, it } from "vitest";
import { describeUuid, uuidV4, uuidV7s } from "./uuid.js";

const fixed = (value: number) => (bytes: Uint8Array) => bytes.fill(value);

describe("uuid", () => {
  it("makes v4 with the version and variant bits set", () => {
    expect(uuidV4(fixed(0xff))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    expect(uuidV4(fixed(0))).toBe("00000000-0000-4000-8000-000000000000");
  });

  it("makes v7 with the millisecond time first, counting up within one millisecond", () => {
    const at = Date.parse("2026-01-01T00:00:00Z");
    const list = uuidV7s(3, at, fixed(0xff));
    expect(list[0].slice(0, 13)).toBe(
      `${at.toString(16).padStart(12, "0").slice(0, 8)}-${at.toString(16).padStart(12, "0").slice(8)}`,
    );
    expect([...list].sort()).toEqual(list);
    expect(new Set(list).size).toBe(3);
    expect(describeUuid(list[0])[1]).toMatchObject({
      rows: expect.arrayContaining([{ name: "Made (UTC)", value: "2026-01-01T00:00:00.000Z" }]),
    });
  });

  it("reads versions, the time of v1, nil and max, and refuses malformed ones", () => {
    // RFC 9562 Appendix A.1's v1 example: 2022-02-22T19:22:22Z.
    const v1 = describeUuid("C232AB00-9414-11EC-B3C8-9F6BDECED846");
    expect(v1[0]).toEqual({ type: "status", text: "Valid: a version 1 UUID", tone: "positive" });
    expect(v1[1]).toMatchObject({
      rows: expect.arrayContaining([{ name: "Made (UTC)", value: "2022-02-22T19:22:22.000Z" }]),
    });
    expect(describeUuid("{00000000-0000-0000-0000-000000000000}")[0]).toMatchObject({
      text: "Valid: the nil UUID (all zeros)",
    });
    expect(describeUuid("urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff")[0]).toMatchObject({
      text: "Valid: the max UUID (all ones)",
    });
    expect(describeUuid("12345678-1234-1234-1234-12345678901")[0]).toMatchObject({ tone: "critical" });
    expect(describeUuid("1234567812341234123412345678901g")[0]).toMatchObject({ tone: "critical" });
    expect(describeUuid("12345678-1234-1234-1234-123456789012")[0]).toMatchObject({ tone: "warning" });
  });
});
