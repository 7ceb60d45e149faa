/** The documented examples of layouts, typed values and states parse, and near misses do not. */
import { describe, expect, it } from "vitest";
import { layoutDataSchemas, LAYOUTS } from "./layouts.js";
import { BLIP_STATES, blipStateSchema } from "./states.js";
import { displayValueSchema, typedValueSchema } from "./values.js";
import { actionSchema, factSchema, quickChoiceSchema } from "./actions.js";
import { blipInputSchema } from "./payload.js";

const at = "2025-03-01T09:30:00.000Z";

const examples = {
  stat: {
    value: { type: "currency", value: { amount: 1250, currency: "EUR" } },
    label: "Today",
    delta: { type: "percent", value: 0.12 },
    series: [3, 5, 4, 8],
  },
  progress: {
    fraction: 0.6,
    step: "Uploading assets",
    stages: [
      { title: "Build", state: "done" },
      { title: "Deploy", state: "running" },
    ],
  },
  session: { startedAt: at, step: "Editing src/app.ts" },
  list: {
    items: [
      {
        id: "pr-42",
        title: "Fix login redirect",
        subtitle: "octo/web · 2 h",
        state: "waiting",
        url: "https://github.com/octo/web/pull/42",
        actions: [{ id: "approve", title: "Approve", role: "primary" }],
      },
    ],
    total: 12,
  },
  score: { home: { name: "Lakers", score: 98 }, away: { name: "Celtics", score: 101 }, period: "Q4 2:31" },
  countdown: { endsAt: "2025-03-01T10:00:00.000Z", startedAt: at },
  meter: {
    meters: [
      { label: "API calls", fraction: 0.83, value: "4,150 / 5,000", resetsAt: at },
      { label: "Disk", fraction: 0.71 },
    ],
  },
} as const;

describe("layouts", () => {
  it("has exactly the seven layouts of SPEC.md", () => {
    expect(LAYOUTS).toEqual(["stat", "progress", "session", "list", "score", "countdown", "meter"]);
  });

  for (const layout of LAYOUTS) {
    it(`${layout}: the documented example parses unchanged`, () => {
      expect(layoutDataSchemas[layout].parse(examples[layout])).toEqual(examples[layout]);
      expect(blipInputSchema.safeParse({ key: "k", title: "T", layout, data: examples[layout] }).success).toBe(true);
    });
  }

  it("refuses near misses", () => {
    expect(layoutDataSchemas.progress.safeParse({ fraction: -0.1 }).success).toBe(false);
    expect(layoutDataSchemas.progress.safeParse({ step: "x" }).success).toBe(false);
    expect(layoutDataSchemas.progress.safeParse({ fraction: 0, stages: [{ title: "x", state: "ok" }] }).success).toBe(
      false,
    );
    expect(layoutDataSchemas.session.safeParse({ startedAt: 1700000000 }).success).toBe(false);
    expect(layoutDataSchemas.list.safeParse({ items: [{ title: "no id" }] }).success).toBe(false);
    expect(layoutDataSchemas.meter.safeParse({ meters: [] }).success).toBe(false);
    expect(layoutDataSchemas.meter.safeParse({ meters: [{ label: "x", fraction: 1.5 }] }).success).toBe(false);
    expect(layoutDataSchemas.stat.safeParse({ value: 1, series: [1, "2"] }).success).toBe(false);
    expect(layoutDataSchemas.score.safeParse({ home: { name: "A", score: 1 } }).success).toBe(false);
  });
});

describe("typed values", () => {
  const valid = [
    { type: "number", value: 1284, unit: "req/s" },
    { type: "currency", value: { amount: 1250.5, currency: "EUR" } },
    { type: "percent", value: 0.42 },
    { type: "percent", value: 2.5 },
    { type: "duration", value: 11520 },
    { type: "date", value: at },
    { type: "date", value: "2025-03-01T10:30:00+01:00" },
    { type: "text", value: "main · 3 commits ahead" },
  ];
  it("accepts the documented forms", () => {
    for (const value of valid) expect(typedValueSchema.parse(value)).toEqual(value);
  });

  it("refuses wrong shapes", () => {
    const invalid = [
      { type: "number", value: "1" },
      { type: "currency", value: 12 },
      { type: "currency", value: { amount: 1, currency: "eur" } },
      { type: "duration", value: -1 },
      { type: "date", value: "tomorrow" },
      { type: "date", value: 1700000000 },
      { type: "bytes", value: 1 },
    ];
    for (const value of invalid) expect(typedValueSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });

  it("lets a bare string or finite number stand for text or number", () => {
    expect(displayValueSchema.parse("3 open")).toBe("3 open");
    expect(displayValueSchema.parse(42)).toBe(42);
    expect(displayValueSchema.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
    expect(displayValueSchema.safeParse(null).success).toBe(false);
  });
});

describe("states, actions, choices and facts", () => {
  it("has seven blip states", () => {
    expect(BLIP_STATES).toEqual(["idle", "running", "waiting", "success", "warning", "failure", "cancelled"]);
    expect(blipStateSchema.safeParse("running").success).toBe(true);
    expect(blipStateSchema.safeParse("ok").success).toBe(false);
  });

  it("parses the documented actions, choices and facts", () => {
    expect(
      actionSchema.safeParse({ id: "merge", title: "Merge", icon: "arrow.triangle.merge", role: "primary" }).success,
    ).toBe(true);
    expect(actionSchema.safeParse({ id: "snooze", title: "Snooze", dismisses: true }).success).toBe(true);
    expect(actionSchema.safeParse({ id: "reply", title: "Reply", input: { placeholder: "Say…" } }).success).toBe(true);
    expect(actionSchema.safeParse({ id: "x", title: "X", url: "file:///etc/passwd" }).success).toBe(false);
    expect(actionSchema.safeParse({ id: "", title: "X" }).success).toBe(false);
    expect(actionSchema.safeParse({ id: "a".repeat(65), title: "X" }).success).toBe(false);
    expect(quickChoiceSchema.safeParse({ id: "allow", title: "Allow" }).success).toBe(true);
    expect(
      factSchema.safeParse({ label: "Revenue", value: { type: "currency", value: { amount: 420, currency: "USD" } } })
        .success,
    ).toBe(true);
  });
});
