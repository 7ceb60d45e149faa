import { describe, expect, it } from "vitest";
import { TOOL_SPEC_DEFAULTS } from "../../../test/tool-spec-defaults.js";
import { decodeToolSpec, encodeToolSpec, ToolSpecError } from "./tool-spec.js";

const minimal = { id: "b64", title: "Base64", icon: "textformat" };
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function decodes(raw: unknown) {
  const result = decodeToolSpec(raw);
  if (!result.ok) throw new Error(result.error);
  return result.spec;
}
function refuses(raw: unknown) {
  const result = decodeToolSpec(raw);
  if (result.ok) throw new Error("expected the spec to be refused");
  return result.error;
}

describe("decodeToolSpec: defaults", () => {
  it("fills every top-level default", () => {
    expect(decodes(minimal)).toEqual({ ...minimal, ...TOOL_SPEC_DEFAULTS });
  });

  it("fills action role, drop minimumFiles and file field defaults", () => {
    const spec = decodes({
      ...minimal,
      actions: [{ id: "go", title: "Go" }],
      dropActions: [{ id: "d", title: "D", icon: "tray", accepts: ["public.image"] }],
      fields: [{ id: "f", type: "file" }],
    });
    expect(spec.actions[0]).toEqual({ id: "go", title: "Go", role: "default" });
    expect(spec.dropActions[0].minimumFiles).toBe(1);
    expect(spec.fields[0]).toEqual({ id: "f", type: "file", types: ["public.item"], multiple: false });
  });
});

describe("decodeToolSpec: rules at the limit and past it", () => {
  it("id: 1–64 letters, digits, - or _", () => {
    expect(decodes({ ...minimal, id: "a".repeat(64) }).id).toHaveLength(64);
    expect(decodes({ ...minimal, id: "A-z_9" }).id).toBe("A-z_9");
    for (const id of ["", "a".repeat(65), "has space", "dot.ted", "é"]) {
      expect(refuses({ ...minimal, id })).toBe('"id" should be 1–64 letters, digits, - or _');
    }
  });

  it("title: required, at most 32 characters", () => {
    expect(decodes({ ...minimal, title: "t".repeat(32) }).title).toHaveLength(32);
    expect(decodes({ ...minimal, title: "👍".repeat(32) }).title).toHaveLength(64);
    expect(refuses({ ...minimal, title: "t".repeat(33) })).toBe('"title" should be at most 32 characters');
    expect(refuses({ ...minimal, title: undefined })).toBe('"title" should be a string');
    expect(refuses({ ...minimal, icon: undefined })).toBe('"icon" should be a string');
  });

  it("summary: at most 160 characters", () => {
    expect(decodes({ ...minimal, summary: "s".repeat(160) }).summary).toHaveLength(160);
    expect(refuses({ ...minimal, summary: "s".repeat(161) })).toBe('"summary" should be at most 160 characters');
  });

  it("category: one of the six", () => {
    expect(decodes({ ...minimal, category: "pdf" }).category).toBe("pdf");
    expect(refuses({ ...minimal, category: "audio" })).toBe(
      '"category" should be one of image, video, pdf, developer, design, everyday',
    );
  });

  it("fields: at most 8, unique ids", () => {
    const field = (i: number) => ({ id: `f${i}`, type: "text" });
    expect(decodes({ ...minimal, fields: range(8).map(field) }).fields).toHaveLength(8);
    expect(refuses({ ...minimal, fields: range(9).map(field) })).toBe('"fields" should have at most 8 fields');
    expect(refuses({ ...minimal, fields: [field(1), field(1)] })).toBe(
      '"fields.1.id" should be unique: "f1" is used twice',
    );
  });

  it("actions: at most 4, unique ids, at most one primary", () => {
    const action = (i: number, role?: string) => ({ id: `a${i}`, title: `A${i}`, role });
    expect(decodes({ ...minimal, actions: range(4).map((i) => action(i)) }).actions).toHaveLength(4);
    expect(refuses({ ...minimal, actions: range(5).map((i) => action(i)) })).toBe(
      '"actions" should have at most 4 actions',
    );
    expect(refuses({ ...minimal, actions: [action(1), action(1)] })).toBe(
      '"actions.1.id" should be unique: "a1" is used twice',
    );
    expect(decodes({ ...minimal, actions: [action(0, "primary"), action(1)] }).actions[0].role).toBe("primary");
    expect(refuses({ ...minimal, actions: [action(0, "primary"), action(1, "primary")] })).toBe(
      '"actions.1.role" should not be primary: only one action may be primary',
    );
  });

  it("dropActions: at most 4 with an icon and accepted types; minimumFiles at least 1", () => {
    const drop = (i: number) => ({ id: `d${i}`, title: "D", icon: "tray", accepts: ["public.item"] });
    expect(decodes({ ...minimal, dropActions: range(4).map(drop) }).dropActions).toHaveLength(4);
    expect(refuses({ ...minimal, dropActions: range(5).map(drop) })).toBe(
      '"dropActions" should have at most 4 drop actions',
    );
    expect(refuses({ ...minimal, dropActions: [{ ...drop(0), icon: undefined }] })).toBe(
      '"dropActions.0.icon" should be a string',
    );
    expect(refuses({ ...minimal, dropActions: [{ ...drop(0), accepts: [] }] })).toBe(
      '"dropActions.0.accepts" should have at least 1 type',
    );
    expect(decodes({ ...minimal, dropActions: [{ ...drop(0), minimumFiles: 2 }] }).dropActions[0].minimumFiles).toBe(2);
    expect(refuses({ ...minimal, dropActions: [{ ...drop(0), minimumFiles: 0 }] })).toBe(
      '"dropActions.0.minimumFiles" should be at least 1',
    );
  });

  it("clipboardKinds: from the eight kinds, repeats collapsed", () => {
    expect(decodes({ ...minimal, clipboardKinds: ["jwt", "json", "jwt"] }).clipboardKinds).toEqual(["jwt", "json"]);
    expect(refuses({ ...minimal, clipboardKinds: ["xml"] })).toBe(
      '"clipboardKinds.0" should be one of json, jwt, url, base64, timestamp, color, uuid, curl',
    );
  });

  it("live and remembersInputs are booleans", () => {
    expect(decodes({ ...minimal, live: true, remembersInputs: false })).toMatchObject({
      live: true,
      remembersInputs: false,
    });
    expect(refuses({ ...minimal, live: "yes" })).toBe('"live" should be a boolean');
  });

  it("is not an object", () => {
    expect(refuses("tool")).toBe("tool spec should be an object");
  });
});

describe("decodeToolSpec: field types", () => {
  const withField = (field: object) => ({ ...minimal, fields: [{ id: "f", ...field }] });

  it("accepts each type with its extra keys", () => {
    const fields = [
      { id: "a", type: "text", label: "A", placeholder: "…", default: "x" },
      { id: "b", type: "code", language: "json", default: "{}" },
      { id: "c", type: "file", types: ["public.image"], multiple: true },
      { id: "d", type: "choice", options: [{ id: "x", title: "X" }], default: "x" },
      { id: "e", type: "toggle", default: true },
      { id: "g", type: "number", min: 0, max: 10, step: 0.5, unit: "px", default: 10 },
      { id: "h", type: "pairs", default: [{ name: "n", value: "v" }] },
    ];
    expect(decodes({ ...minimal, fields }).fields).toHaveLength(7);
  });

  it("refuses an unknown type and a mistyped default", () => {
    expect(refuses(withField({ type: "date" }))).toBe(
      '"fields.0.type" should be one of text, code, file, choice, toggle, number, pairs',
    );
    expect(refuses(withField({ type: "toggle", default: "yes" }))).toBe('"fields.0.default" should be a boolean');
    expect(refuses(withField({ type: "pairs", default: [{ name: "n" }] }))).toBe(
      '"fields.0.default.0.value" should be a string',
    );
  });

  it("file: no default allowed", () => {
    expect(refuses(withField({ type: "file", default: [] }))).toBe('"fields.0.default" is not allowed on a file field');
  });

  it("choice: 1–24 options with unique ids; default among them", () => {
    const options = (n: number) => range(n).map((i) => ({ id: `o${i}`, title: `O${i}` }));
    expect(decodes(withField({ type: "choice", options: options(1) })).fields).toHaveLength(1);
    expect(decodes(withField({ type: "choice", options: options(24) })).fields).toHaveLength(1);
    expect(refuses(withField({ type: "choice", options: [] }))).toBe(
      '"fields.0.options" should have at least 1 option',
    );
    expect(refuses(withField({ type: "choice", options: options(25) }))).toBe(
      '"fields.0.options" should have at most 24 options',
    );
    expect(refuses(withField({ type: "choice", options: [...options(2), { id: "o1", title: "again" }] }))).toBe(
      '"fields.0.options.2.id" should be unique: "o1" is used twice',
    );
    expect(refuses(withField({ type: "choice", options: options(2), default: "o9" }))).toBe(
      '"fields.0.default" should be one of the option ids: o0, o1',
    );
  });

  it("number: default within min..max, min not above max", () => {
    expect(decodes(withField({ type: "number", min: 1, max: 5, default: 1 })).fields).toHaveLength(1);
    expect(decodes(withField({ type: "number", min: 1, max: 5, default: 5 })).fields).toHaveLength(1);
    expect(refuses(withField({ type: "number", min: 1, max: 5, default: 5.5 }))).toBe(
      '"fields.0.default" should be within 1..5',
    );
    expect(refuses(withField({ type: "number", min: 1, default: 0 }))).toBe('"fields.0.default" should be within 1..∞');
    expect(refuses(withField({ type: "number", min: 5, max: 1 }))).toBe('"fields.0.max" should be at least min (5)');
    expect(refuses(withField({ type: "number", step: 0 }))).toBe('"fields.0.step" should be more than 0');
  });
});

describe("encodeToolSpec", () => {
  it("spells every default in a fixed key order", () => {
    const shuffled = { icon: "textformat", fields: [{ type: "file", id: "f" }], title: "Base64", id: "b64" };
    expect(JSON.stringify(encodeToolSpec(shuffled))).toBe(
      '{"id":"b64","title":"Base64","icon":"textformat","summary":"","category":"everyday",' +
        '"fields":[{"id":"f","type":"file","types":["public.item"],"multiple":false}],"actions":[],' +
        '"live":false,"remembersInputs":true,"dropActions":[],"clipboardKinds":[]}',
    );
  });

  it("orders field and action keys the same whatever order they came in", () => {
    const a = encodeToolSpec({
      ...minimal,
      fields: [{ max: 9, default: 3, type: "number", min: 1, id: "n", label: "N" }],
      actions: [{ role: "primary", title: "Go", id: "go", icon: "play" }],
    });
    expect(JSON.stringify(a.fields[0])).toBe('{"id":"n","type":"number","label":"N","default":3,"min":1,"max":9}');
    expect(JSON.stringify(a.actions[0])).toBe('{"id":"go","title":"Go","icon":"play","role":"primary"}');
  });

  it("throws a ToolSpecError naming the problem", () => {
    expect(() => encodeToolSpec({ ...minimal, title: "" })).toThrow(ToolSpecError);
    expect(() => encodeToolSpec({ ...minimal, title: "" })).toThrow('invalid tool spec: "title" should not be empty');
  });
});
