import { describe, expect, it } from "vitest";
import { oauthConnectionSchema } from "./oauth.js";
import {
  secretNameSchema,
  secretValueSchema,
  workingHoursOrNullSchema,
  workingHoursSchema,
  webhookFileSchema,
} from "./records.js";

describe("secret names", () => {
  it("takes 1–64 of A–Z a–z 0–9 . _ -", () => {
    expect(secretNameSchema.safeParse("a").success).toBe(true);
    expect(secretNameSchema.safeParse("A.z_0-9").success).toBe(true);
    expect(secretNameSchema.safeParse("n".repeat(64)).success).toBe(true);
    for (const bad of ["", "n".repeat(65), "has space", "slash/ed", "é"]) {
      expect(secretNameSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe("secret values", () => {
  it("takes up to 16384 bytes of UTF-8", () => {
    expect(secretValueSchema.safeParse("").success).toBe(true);
    expect(secretValueSchema.safeParse("x".repeat(16_384)).success).toBe(true);
    expect(secretValueSchema.safeParse("x".repeat(16_385)).success).toBe(false);
    expect(secretValueSchema.safeParse("é".repeat(8_192)).success).toBe(true);
    const over = secretValueSchema.safeParse(`${"é".repeat(8_192)}x`);
    expect(over.success).toBe(false);
    expect(over.error?.issues[0].message).toBe("should be at most 16384 bytes (16 KB) of UTF-8");
  });
});

describe("working hours", () => {
  it("are minutes after midnight, or null", () => {
    expect(workingHoursSchema.parse({ start: 540, end: 1050, weekdaysOnly: true })).toEqual({
      start: 540,
      end: 1050,
      weekdaysOnly: true,
    });
    expect(workingHoursSchema.safeParse({ start: 0, end: 1440, weekdaysOnly: false }).success).toBe(true);
    expect(workingHoursSchema.safeParse({ start: -1, end: 60, weekdaysOnly: false }).success).toBe(false);
    expect(workingHoursSchema.safeParse({ start: 0, end: 1441, weekdaysOnly: false }).success).toBe(false);
    expect(workingHoursSchema.safeParse({ start: 9.5, end: 60, weekdaysOnly: false }).success).toBe(false);
    expect(workingHoursOrNullSchema.parse(null)).toBeNull();
  });
});

describe("OAuth connection record", () => {
  const record = {
    id: "c1",
    account: "octocat",
    label: "Work",
    connectedAt: "2025-03-01T09:30:00.000Z",
    scopes: ["repo"],
    needsReconnect: false,
  };
  it("holds no token", () => {
    expect(oauthConnectionSchema.parse(record)).toEqual(record);
    expect(
      oauthConnectionSchema.safeParse({ id: "c1", connectedAt: record.connectedAt, needsReconnect: true }).success,
    ).toBe(true);
    expect(oauthConnectionSchema.safeParse({ ...record, token: "gho_x" }).success).toBe(false);
    expect(oauthConnectionSchema.safeParse({ ...record, needsReconnect: undefined }).success).toBe(false);
  });
});

describe("webhookFileSchema", () => {
  it("takes a port from 1 to 65535 and a token that is not empty", () => {
    expect(webhookFileSchema.safeParse({ port: 1, token: "t" }).success).toBe(true);
    expect(webhookFileSchema.safeParse({ port: 65535, token: "t" }).success).toBe(true);
  });

  it("refuses a port past either end, a fraction, a string, or an empty or missing token", () => {
    for (const bad of [
      { port: 0, token: "t" },
      { port: 65536, token: "t" },
      { port: 47811.5, token: "t" },
      { port: "47811", token: "t" },
      { port: 47811, token: "" },
      { port: 47811 },
      null,
      [],
    ]) {
      expect(webhookFileSchema.safeParse(bad).success).toBe(false);
    }
  });
});
