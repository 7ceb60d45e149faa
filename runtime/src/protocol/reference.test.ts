/**
 * The protocol reference (runtime/README.md "Methods") names every method this module declares:
 * a method added here without its line there fails.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as protocol from "./index.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

const methods = Object.values(protocol as Record<string, unknown>)
  .filter((value): value is { method: string } => typeof (value as { method?: unknown })?.method === "string")
  .map((type) => type.method);

describe("runtime/README.md", () => {
  it("names every method of the protocol module", () => {
    expect(methods).toContain("extension.denied");
    const named = (method: string) =>
      README.includes(`"method":"${method}"`) || new RegExp(`\`${method.replaceAll(".", "\\.")}[\` ]`).test(README);
    expect(methods.filter((method) => !named(method))).toEqual([]);
  });
});
