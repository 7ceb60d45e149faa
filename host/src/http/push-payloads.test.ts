import { describe, expect, it } from "vitest";
import { preparePush } from "./push-payloads.js";
import { blipIdFromPath } from "./blip-routes.js";
import { parseAwait } from "./hook-route.js";

const none = () => undefined;
const NOW = "2025-03-01T09:30:00.000Z";
const blip = (extra: Record<string, unknown> = {}) => ({
  title: "Deploy api",
  layout: "progress",
  data: { fraction: 0.5 },
  ...extra,
});

describe("preparePush", () => {
  it("fills id, v, emittedAt and marks a missing seq for stamping", () => {
    const prepared = preparePush(blip(), none, NOW);
    expect(prepared).toEqual({
      ok: true,
      items: [
        {
          stampSeq: true,
          payload: {
            id: "webhook/deploy-api",
            v: 1,
            seq: 1,
            emittedAt: NOW,
            title: "Deploy api",
            layout: "progress",
            data: { fraction: 0.5 },
          },
        },
      ],
    });
  });

  it("keeps a given seq and drops unknown keys", () => {
    const prepared = preparePush(blip({ id: "x", seq: 7, extra: true }), none, NOW);
    expect(prepared.ok && prepared.items[0]).toEqual({
      stampSeq: false,
      payload: expect.not.objectContaining({ extra: true }),
    });
    expect(prepared.ok && prepared.items[0].payload.seq).toBe(7);
  });

  it("reports the first invalid index only", () => {
    expect(preparePush([blip(), blip({ data: {} }), blip({ title: 1 })], none)).toEqual({
      ok: false,
      error: 'invalid payload at [1]: "data.fraction" should be a number',
    });
  });

  it("refuses a payload over 4 KB after truncation", () => {
    const prepared = preparePush(blip({ subtitle: "x".repeat(5000) }), none);
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.error).toMatch(
      /^invalid payload at \[0\]: payload is \d+ bytes after truncation, over the 4096-byte limit$/,
    );
  });
});

describe("blipIdFromPath", () => {
  it("reads ids with slashes and percent-encoding", () => {
    expect(blipIdFromPath("/deploy/end", "/end")).toBe("deploy");
    expect(blipIdFromPath("/webhook/deploy/end", "/end")).toBe("webhook/deploy");
    expect(blipIdFromPath("/webhook%2Fdeploy", "")).toBe("webhook/deploy");
    expect(blipIdFromPath("/end", "/end")).toBeUndefined();
    expect(blipIdFromPath("/", "")).toBeUndefined();
    expect(() => blipIdFromPath("/%E0%A4%A", "")).toThrow(/not valid percent-encoding/);
  });
});

describe("parseAwait", () => {
  const parse = (q: string) => parseAwait(new URLSearchParams(q));
  it("takes whole seconds 0–600", () => {
    expect(parse("")).toBeUndefined();
    expect(parse("await=0")).toBe(0);
    expect(parse("await=600")).toBe(600);
    expect(parse("other=1")).toBeUndefined();
  });

  it("refuses 601, negatives, fractions, words and repeats", () => {
    for (const q of ["await=601", "await=-1", "await=1.5", "await=abc", "await=", "await=1&await=1"]) {
      expect(() => parse(q), q).toThrow(/^\?await should be a whole number of seconds from 0 to 600/);
    }
  });
});
