import { describe, expect, it } from "vitest";
import { processBlipInput, processPayload, payloadErrorAt, formatPayloadIssue } from "./payload.js";
import { blipPayloadSchema } from "../schemas/payload.js";
import { jsonByteLength } from "../schemas/text.js";

const stamp = { v: 1, id: "com.example.x/web", seq: 3, emittedAt: "2025-03-01T09:30:00.000Z" };
const stat = { ...stamp, title: "Web", layout: "stat", data: { value: 3 } };
const action = (i: number) => ({ id: `a${i}`, title: `A${i}` });
const choice = (i: number) => ({ id: `c${i}`, title: `C${i}` });
const fact = (i: number) => ({ label: `F${i}`, value: i });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function ok(input: unknown) {
  const result = processPayload(input);
  if (!result.ok) throw new Error(result.error);
  return result;
}
function error(input: unknown) {
  const result = processPayload(input);
  if (result.ok) throw new Error("expected the payload to be refused");
  return result.error;
}

describe("processPayload: validation", () => {
  it("accepts a minimal payload of every layout", () => {
    const datas = {
      stat: { value: { type: "currency", value: { amount: 12.5, currency: "EUR" } } },
      progress: { fraction: 0.5, step: "Building" },
      session: { startedAt: "2025-03-01T09:30:00Z" },
      list: { items: [] },
      score: { home: { name: "A", score: 1 }, away: { name: "B", score: 2 } },
      countdown: { endsAt: "2025-03-01T10:00:00+01:00" },
      meter: { meters: [{ label: "Disk", fraction: 0.7 }] },
    };
    for (const [layout, data] of Object.entries(datas)) {
      expect(ok({ ...stamp, title: "T", layout, data }).payload.layout).toBe(layout);
    }
  });

  it("names the field and the type, SPEC's way", () => {
    const items = [
      { id: "a", title: "A" },
      { id: "b", title: "B" },
      { id: "c", title: 7 },
    ];
    expect(error({ ...stat, layout: "list", data: { items } })).toBe('"data.items.2.title" should be a string');
    expect(error({ ...stat, title: undefined })).toBe('"title" should be a string');
    expect(error({ ...stat, seq: "1" })).toBe('"seq" should be a number');
  });

  it("names the allowed values for enums and the layout", () => {
    expect(error({ ...stat, layout: "pie" })).toBe(
      '"layout" should be one of stat, progress, session, list, score, countdown, meter',
    );
    expect(error({ ...stat, state: "done" })).toBe(
      '"state" should be one of idle, running, waiting, success, warning, failure, cancelled',
    );
    expect(error({ ...stat, v: 2 })).toBe('"v" should be 1');
  });

  it("reports inside typed values and unions", () => {
    expect(error({ ...stat, data: { value: { type: "currency", value: { amount: "12" } } } })).toBe(
      '"data.value.value.amount" should be a number',
    );
    expect(error({ ...stat, data: { value: { type: "money", value: 1 } } })).toBe(
      '"data.value.type" should be one of number, currency, percent, duration, date, text',
    );
    expect(error({ ...stat, data: { value: true } })).toBe('"data.value" should be an object, a string or a number');
  });

  it("checks fractions, dates, urls and unique ids", () => {
    expect(error({ ...stat, layout: "progress", data: { fraction: 1.01 } })).toBe(
      '"data.fraction" should be at most 1',
    );
    expect(error({ ...stat, emittedAt: "yesterday" })).toMatch(/^"emittedAt" should be an ISO 8601 date/);
    expect(error({ ...stat, url: "ftp://x" })).toBe('"url" should be an http or https address');
    expect(error({ ...stat, actions: [action(1)], choices: [{ id: "a1", title: "x" }] })).toBe(
      '"actions.0.id" should be unique: "a1" is used twice',
    );
    expect(error({ ...stat, id: "no-slash" })).toBe('"id" should be <extensionId>/<key>, like webhook/deploy');
  });

  it("describes a payload that is not an object", () => {
    expect(error(42)).toBe("payload should be an object");
    expect(error(null)).toBe("payload should be an object");
  });

  it("drops unknown keys", () => {
    expect(ok({ ...stat, extra: 1 }).payload).not.toHaveProperty("extra");
  });
});

describe("processPayload: truncation (rule 1)", () => {
  it("keeps 4 actions and cuts the 5th", () => {
    expect(ok({ ...stat, actions: range(4).map(action) }).truncated).toEqual([]);
    const cut = ok({ ...stat, actions: range(5).map(action) });
    expect(cut.payload.actions?.map((a) => a.id)).toEqual(["a0", "a1", "a2", "a3"]);
    expect(cut.truncated).toEqual(["actions"]);
  });

  it("counts quick choices with actions, choices first", () => {
    const fits = ok({ ...stat, choices: range(2).map(choice), actions: range(2).map(action) });
    expect(fits.truncated).toEqual([]);
    const cut = ok({ ...stat, choices: range(3).map(choice), actions: range(2).map(action) });
    expect(cut.payload.choices).toHaveLength(3);
    expect(cut.payload.actions?.map((a) => a.id)).toEqual(["a0"]);
    expect(cut.truncated).toEqual(["actions"]);
    const onlyChoices = ok({ ...stat, choices: range(5).map(choice), actions: [action(0)] });
    expect(onlyChoices.payload.choices).toHaveLength(4);
    expect(onlyChoices.payload.actions).toEqual([]);
    expect(onlyChoices.truncated).toEqual(["choices", "actions"]);
  });

  it("keeps 4 facts and cuts the 5th", () => {
    expect(ok({ ...stat, facts: range(4).map(fact) }).truncated).toEqual([]);
    const cut = ok({ ...stat, facts: range(5).map(fact) });
    expect(cut.payload.facts).toHaveLength(4);
    expect(cut.truncated).toEqual(["facts"]);
  });

  it("keeps 5 list items, each with 3 actions", () => {
    const item = (i: number, actions: number) => ({ id: `i${i}`, title: `I${i}`, actions: range(actions).map(action) });
    const fits = ok({ ...stat, layout: "list", data: { items: range(5).map((i) => item(i, 3)) } });
    expect(fits.truncated).toEqual([]);
    const cut = ok({ ...stat, layout: "list", data: { items: range(6).map((i) => item(i, i === 1 ? 4 : 3)) } });
    if (cut.payload.layout !== "list") throw new Error("layout");
    expect(cut.payload.data.items.map((i) => i.id)).toEqual(["i0", "i1", "i2", "i3", "i4"]);
    expect(cut.payload.data.items[1].actions?.map((a) => a.id)).toEqual(["a0", "a1", "a2"]);
    expect(cut.truncated).toEqual(["data.items", "data.items.1.actions"]);
  });

  it("keeps 6 progress stages", () => {
    const stages = (n: number) => range(n).map((i) => ({ title: `S${i}`, state: "done" }));
    expect(ok({ ...stat, layout: "progress", data: { fraction: 0, stages: stages(6) } }).truncated).toEqual([]);
    const cut = ok({ ...stat, layout: "progress", data: { fraction: 0, stages: stages(7) } });
    expect(cut.truncated).toEqual(["data.stages"]);
    if (cut.payload.layout !== "progress") throw new Error("layout");
    expect(cut.payload.data.stages?.map((s) => s.title)).toEqual(["S0", "S1", "S2", "S3", "S4", "S5"]);
  });

  it("keeps 4 meters", () => {
    const meters = (n: number) => range(n).map((i) => ({ label: `M${i}`, fraction: 0.1 }));
    expect(ok({ ...stat, layout: "meter", data: { meters: meters(4) } }).truncated).toEqual([]);
    const cut = ok({ ...stat, layout: "meter", data: { meters: meters(5) } });
    expect(cut.truncated).toEqual(["data.meters"]);
  });

  it("keeps the newest 48 series points", () => {
    expect(ok({ ...stat, data: { value: 1, series: range(48) } }).truncated).toEqual([]);
    const cut = ok({ ...stat, data: { value: 1, series: range(49) } });
    expect(cut.truncated).toEqual(["data.series"]);
    if (cut.payload.layout !== "stat") throw new Error("layout");
    expect(cut.payload.data.series).toEqual(range(49).slice(1));
  });

  it("does not change its input", () => {
    const input = { ...stat, actions: range(6).map(action) };
    ok(input);
    expect(input.actions).toHaveLength(6);
  });
});

describe("processPayload: size (rule 2)", () => {
  /** A valid stat payload whose JSON is exactly `bytes` long. */
  function payloadOfBytes(bytes: number) {
    const base = { ...stat, subtitle: "" };
    const room = bytes - jsonByteLength(blipPayloadSchema.parse(base));
    return { ...base, subtitle: "x".repeat(room) };
  }

  it("accepts exactly 4096 bytes and drops 4097", () => {
    const at = payloadOfBytes(4096);
    expect(jsonByteLength(ok(at).payload)).toBe(4096);
    expect(error(payloadOfBytes(4097))).toBe("payload is 4097 bytes after truncation, over the 4096-byte limit");
  });

  it("counts UTF-8 bytes, not characters", () => {
    const ascii = payloadOfBytes(4096);
    const multibyte = { ...ascii, subtitle: "é".repeat(ascii.subtitle.length / 2) + "x" };
    expect(jsonByteLength(multibyte)).toBe(4097);
    expect(processPayload(multibyte).ok).toBe(false);
  });

  it("measures after truncation", () => {
    const big = { ...payloadOfBytes(3800), facts: range(40).map(fact) };
    expect(ok(big).truncated).toEqual(["facts"]);
  });
});

describe("payload error messages for HTTP 400", () => {
  it("prefixes the index", () => {
    const result = processPayload({ ...stat, layout: "list", data: { items: [{ id: "a", title: 1 }] } });
    expect(!result.ok && payloadErrorAt(3, result.error)).toBe(
      'invalid payload at [3]: "data.items.0.title" should be a string',
    );
  });

  it("formats a raw zod issue", () => {
    const parsed = blipPayloadSchema.safeParse({ ...stat, icon: 5 });
    expect(parsed.success).toBe(false);
    expect(formatPayloadIssue(0, parsed.error!.issues[0])).toBe('invalid payload at [0]: "icon" should be a string');
  });
});

describe("processBlipInput", () => {
  const input = { key: "web", title: "Web", layout: "stat", data: { value: 1 } };
  it("stamps id, v, seq and emittedAt", () => {
    const result = processBlipInput(input, { extensionId: "com.example.x", seq: 9, emittedAt: stamp.emittedAt });
    expect(result).toEqual({
      ok: true,
      truncated: [],
      payload: { ...input, key: undefined, id: "com.example.x/web", v: 1, seq: 9, emittedAt: stamp.emittedAt },
    });
    expect(result.ok && "key" in result.payload).toBe(false);
  });
  it("names a missing key", () => {
    const result = processBlipInput({ ...input, key: undefined }, { extensionId: "x", seq: 1 });
    expect(!result.ok && result.error).toBe('"key" should be a string');
  });
});

describe("hostile input", () => {
  it("never throws on getters that throw", () => {
    const payload = {
      ...stat,
      get title(): string {
        throw new Error("boom");
      },
    };
    expect(processPayload(payload)).toEqual({
      ok: false,
      error: "payload is not readable: boom",
      errors: ["payload is not readable: boom"],
    });
  });
});
