import { describe, expect, it } from "vitest";
import type { Field } from "@svc/api";
import { wireValues } from "./fields-view.js";

const fields = [
  { id: "file", type: "file", types: ["public.item"], multiple: true },
  { id: "headers", type: "pairs" },
] as unknown as Field[];

describe("values as the host takes them", () => {
  it("sends a given file as {handle} only, typed paths as they are, other fields untouched", () => {
    const values = {
      file: ["/typed.txt", { handle: "H".repeat(24), name: "dropped.txt" }],
      headers: [{ name: "A", value: "b" }],
    };
    expect(wireValues({ fields }, values)).toEqual({
      file: ["/typed.txt", { handle: "H".repeat(24) }],
      headers: [{ name: "A", value: "b" }],
    });
    // The page's own values keep the name to show.
    expect(values.file[1]).toEqual({ handle: "H".repeat(24), name: "dropped.txt" });
  });
});
