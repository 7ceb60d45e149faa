/**
 * Property tests: the tool spec decode/encode round trip and value normalization, over random
 * specs (valid by construction, with defaults randomly left out) and random values.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Field, ToolSpec } from "../schemas/index.js";
import { isAbsolutePath } from "../schemas/text.js";
import { decodeToolSpec, encodeToolSpec } from "./tool-spec.js";
import { normalizeToolValues } from "./tool-values.js";

const word = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops keys whose value is undefined, so "left out" really is left out. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const numberField = fc
  .tuple(
    maybe(fc.integer({ min: -1000, max: 1000 })),
    maybe(fc.integer({ min: 0, max: 1000 })),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.boolean(),
  )
  .map(([min, span, at, withDefault]) => {
    const max = min !== undefined && span !== undefined ? min + span : span;
    const lo = min ?? (max ?? 0) - 100;
    const hi = max ?? lo + 100;
    return compact({
      type: "number",
      min,
      max,
      unit: undefined,
      default: withDefault ? lo + (hi - lo) * at : undefined,
    });
  });

const choiceField = fc
  .uniqueArray(fc.record({ id: word, title: word }), { selector: (o) => o.id, minLength: 1, maxLength: 24 })
  .chain((options) =>
    fc.record({
      type: fc.constant("choice"),
      options: fc.constant(options),
      default: maybe(fc.constantFrom(...options.map((o) => o.id))),
    }),
  )
  .map(compact);

const fieldBody = fc.oneof(
  fc.record({ type: fc.constant("text"), default: maybe(fc.string()), placeholder: maybe(fc.string()) }).map(compact),
  fc.record({ type: fc.constant("code"), default: maybe(fc.string()), language: maybe(word) }).map(compact),
  fc
    .record({
      type: fc.constant("file"),
      types: maybe(fc.array(word, { minLength: 1, maxLength: 3 })),
      multiple: maybe(fc.boolean()),
    })
    .map(compact),
  choiceField,
  fc.record({ type: fc.constant("toggle"), default: maybe(fc.boolean()) }).map(compact),
  numberField,
  fc
    .record({
      type: fc.constant("pairs"),
      default: maybe(fc.array(fc.record({ name: fc.string(), value: fc.string() }), { maxLength: 3 })),
    })
    .map(compact),
);

const fields = fc
  .uniqueArray(fc.tuple(word, fieldBody, maybe(fc.string())), { selector: ([id]) => id, maxLength: 8 })
  .map((list) => list.map(([id, body, label]) => compact({ id, label, ...body })));

const actions = fc
  .uniqueArray(
    fc.record({ id: word, title: word, icon: maybe(word), role: maybe(fc.constantFrom("default", "destructive")) }),
    {
      selector: (a) => a.id,
      maxLength: 4,
    },
  )
  .chain((list) => fc.record({ list: fc.constant(list.map(compact)), primary: fc.nat({ max: 4 }) }))
  .map(({ list, primary }) => list.map((a, i) => (i === primary ? { ...a, role: "primary" } : a)));

const dropActions = fc.uniqueArray(
  fc
    .record({
      id: word,
      title: word,
      icon: word,
      accepts: fc.array(word, { minLength: 1, maxLength: 2 }),
      minimumFiles: maybe(fc.integer({ min: 1, max: 5 })),
    })
    .map(compact),
  { selector: (d) => d.id, maxLength: 4 },
);

/** Raw specs as an author might write them: valid, with any default left out. */
const rawSpec = fc
  .record({
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    title: fc.string({ minLength: 1, maxLength: 32 }),
    icon: word,
    summary: maybe(fc.string({ maxLength: 160 })),
    category: maybe(fc.constantFrom("image", "video", "pdf", "developer", "design", "everyday")),
    fields: maybe(fields),
    actions: maybe(actions),
    live: maybe(fc.boolean()),
    remembersInputs: maybe(fc.boolean()),
    dropActions: maybe(dropActions),
    clipboardKinds: maybe(fc.subarray(["json", "jwt", "url", "base64", "timestamp", "color", "uuid", "curl"])),
  })
  .map(compact);

/** Rebuilds an object tree with each object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  }
  return value;
}

function decoded(raw: unknown): ToolSpec {
  const result = decodeToolSpec(raw);
  if (!result.ok) throw new Error(`${result.error} in ${JSON.stringify(raw)}`);
  return result.spec;
}

describe("tool spec round trip", () => {
  it("decodes every generated spec, and decode(encode(decode(x))) equals decode(x)", () => {
    fc.assert(
      fc.property(rawSpec, (raw) => {
        const once = decoded(raw);
        const again = decoded(encodeToolSpec(once));
        expect(again).toEqual(once);
        expect(JSON.stringify(again)).toBe(JSON.stringify(once));
      }),
      { numRuns: 300 },
    );
  });

  it("encode is canonical: idempotent and blind to key order", () => {
    fc.assert(
      fc.property(rawSpec, (raw) => {
        const canonical = JSON.stringify(encodeToolSpec(raw));
        expect(JSON.stringify(encodeToolSpec(reverseKeys(raw)))).toBe(canonical);
        expect(JSON.stringify(encodeToolSpec(JSON.parse(canonical)))).toBe(canonical);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on arbitrary input, and what decodes round-trips", () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const result = decodeToolSpec(raw);
        if (result.ok) expect(decoded(encodeToolSpec(result.spec))).toEqual(result.spec);
        else expect(typeof result.error).toBe("string");
      }),
      { numRuns: 300 },
    );
  });
});

/** True when `value` has the type and bounds `field` promises. */
function fits(field: Field, value: unknown): boolean {
  switch (field.type) {
    case "text":
    case "code":
      return typeof value === "string";
    case "toggle":
      return typeof value === "boolean";
    case "number":
      return (
        typeof value === "number" &&
        Number.isFinite(value) &&
        (field.min === undefined || value >= field.min) &&
        (field.max === undefined || value <= field.max)
      );
    case "choice":
      return typeof value === "string" && field.options.some((o) => o.id === value);
    case "file":
      return (
        Array.isArray(value) &&
        value.every((p) => typeof p === "string" && isAbsolutePath(p)) &&
        (field.multiple || value.length <= 1)
      );
    case "pairs":
      return (
        Array.isArray(value) &&
        value.every(
          (p) =>
            p &&
            typeof p === "object" &&
            Object.keys(p).sort().join() === "name,value" &&
            typeof p.name === "string" &&
            typeof p.value === "string",
        )
      );
  }
}

/** Values that are sometimes right, sometimes mistyped, sometimes junk. */
const valueLike = fc.oneof(
  fc.anything(),
  fc.string(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.oneof(fc.constantFrom("/tmp/a", "/tmp/b", "C:\\x", "relative"), fc.anything()), { maxLength: 4 }),
  fc.array(fc.oneof(fc.record({ name: fc.string(), value: fc.string() }), fc.anything()), { maxLength: 3 }),
);

const specAndValues = rawSpec.chain((raw) => {
  const spec = decoded(raw);
  const ids = [...spec.fields.map((f) => f.id), "__proto__", "extra"];
  return fc.record({
    spec: fc.constant(spec),
    values: fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom(...ids), valueLike)),
  });
});

describe("normalizeToolValues", () => {
  it("returns exactly the spec's fields, each typed and within bounds", () => {
    fc.assert(
      fc.property(specAndValues, ({ spec, values }) => {
        const normalized = normalizeToolValues(spec, values);
        expect(Object.keys(normalized).sort()).toEqual(spec.fields.map((f) => f.id).sort());
        for (const field of spec.fields) {
          expect(fits(field, normalized[field.id]), `${field.id}: ${JSON.stringify(normalized[field.id])}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(specAndValues, ({ spec, values }) => {
        const once = normalizeToolValues(spec, values);
        expect(normalizeToolValues(spec, once)).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps values that already fit", () => {
    fc.assert(
      fc.property(specAndValues, ({ spec, values }) => {
        const once = normalizeToolValues(spec, values);
        const copy = JSON.parse(JSON.stringify(once));
        expect(normalizeToolValues(spec, copy)).toEqual(copy);
      }),
      { numRuns: 200 },
    );
  });
});
