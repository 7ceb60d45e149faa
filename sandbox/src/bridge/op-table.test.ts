/**
 * The one table of bridge ops against what depends on it at run time: BRIDGE.md's two tables
 * (so the docs cannot drift), the fenced capabilities and the sandbox's own router.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Field } from "./forwarded-fields.js";
import { createCapabilities } from "../capabilities/index.js";
import { BRIDGE_OPS, type BridgeOp } from "./op-table.js";

const BRIDGE_MD = readFileSync(new URL("../../BRIDGE.md", import.meta.url), "utf8");

/** The rows of the markdown table whose header starts with `header`, as cells (`\|` kept inside a cell). */
function tableRows(markdown: string, header: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start < 0) throw new Error(`BRIDGE.md has no table headed "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** `` `files.read` `` → `files.read`. */
const opOf = (cell: string) => /^`([^`]+)`$/.exec(cell)?.[1] ?? `(not one op: ${cell})`;

/** `` `{key, state?, level: a\|b}` (notes) `` → `["key", "state?", "level"]`. */
function keysOf(cell: string): string[] {
  const inner = /^`\{([^}]*)\}`/.exec(cell)?.[1];
  if (inner === undefined) return [`(no {…} in ${cell})`];
  return inner === "" ? [] : inner.split(",").map((key) => key.split(":")[0].trim());
}

const entries = Object.entries(BRIDGE_OPS) as [BridgeOp, (typeof BRIDGE_OPS)[BridgeOp]][];
const forwarded = entries.filter(([, spec]) => spec.servedBy === "runtime");
const served = entries.filter(([, spec]) => spec.servedBy !== "runtime");

describe("BRIDGE.md, checked against the op table", () => {
  it("lists every op the sandbox serves once, with its kind and who serves it", () => {
    const rows = tableRows(BRIDGE_MD, "| op | kind |");
    expect(rows.map(([op]) => opOf(op)).sort()).toEqual(served.map(([op]) => op).sort());
    for (const [cell, kind, , , servedBy] of rows) {
      const spec = BRIDGE_OPS[opOf(cell) as BridgeOp];
      expect({ op: cell, kind, servedBy: servedBy.split(" ")[0] }).toEqual({
        op: cell,
        kind: spec.kind,
        servedBy: spec.servedBy,
      });
    }
  });

  it("lists every forwarded op once, with exactly the keys the sandbox keeps (`?` where one may be left out)", () => {
    const rows = tableRows(BRIDGE_MD, "| op | args | ctx member");
    expect(rows.map(([op]) => opOf(op)).sort()).toEqual(forwarded.map(([op]) => op).sort());
    for (const [cell, args] of rows) {
      const spec = BRIDGE_OPS[opOf(cell) as BridgeOp] as { fields: Record<string, Field<unknown>> };
      // A key "may be left out" when it is optional and null does not count as its value.
      const keys = Object.entries(spec.fields).map(([key, field]) =>
        field.optional && !field.keepsNull ? `${key}?` : key,
      );
      expect({ op: cell, keys: keysOf(args) }).toEqual({ op: cell, keys });
    }
  });
});

describe("the op table", () => {
  it("names exactly the fenced capabilities' ops, each of its kind", () => {
    const capabilities = createCapabilities();
    const capabilityOps = served.filter(([, spec]) => spec.servedBy === "capability");
    expect(Object.keys(capabilities.async).sort()).toEqual(
      capabilityOps
        .filter(([, spec]) => spec.kind === "async")
        .map(([op]) => op)
        .sort(),
    );
    expect(Object.keys(capabilities.sync).sort()).toEqual(
      capabilityOps
        .filter(([, spec]) => spec.kind === "sync")
        .map(([op]) => op)
        .sort(),
    );
  });
});
