import { describe, expect, expectTypeOf, it } from "vitest";
import { defineExtension, tool } from "./define.js";
import { status, table } from "./blocks.js";
import { text } from "./values.js";
import { stat } from "./blips.js";
import { toolSpecSchema } from "../schemas/index.js";
import type { ActionEvent, Ctx, ExtensionEvent, ToolContext } from "../types.js";

describe("defineExtension", () => {
  it("returns the very object it was given", () => {
    const extension = { update: async () => ({ nextRunAfter: 60 }) };
    expect(defineExtension(extension)).toBe(extension);
  });
  it("types ctx, events and actions for the author", () => {
    defineExtension<{ token: string; verbose: boolean }>({
      async update(ctx) {
        expectTypeOf(ctx.preferences.token).toEqualTypeOf<string>();
        expectTypeOf<ReturnType<typeof stat>>().toMatchTypeOf<Parameters<typeof ctx.emit>[0]>();
        return { nextRunAfter: 60 };
      },
      onEvent(ctx, event) {
        expectTypeOf(event).toEqualTypeOf<ExtensionEvent>();
        if (event.type === "webhook") expectTypeOf(event.replyId).toEqualTypeOf<string | undefined>();
        else expectTypeOf(event.paths).toEqualTypeOf<string[]>();
      },
      onAction(ctx, action) {
        expectTypeOf(action).toEqualTypeOf<ActionEvent>();
        expectTypeOf(ctx).toMatchTypeOf<Ctx>();
      },
    });
  });
});

describe("tool", () => {
  const upper = tool({
    id: "upper",
    title: "Upper case",
    icon: "textformat",
    fields: [
      { id: "input", type: "text" },
      {
        id: "mode",
        type: "choice",
        options: [
          { id: "all", title: "All" },
          { id: "first", title: "First letters" },
        ],
      },
      { id: "files", type: "file", multiple: true },
      { id: "count", type: "number", min: 1 },
      { id: "trim", type: "toggle" },
      { id: "headers", type: "pairs" },
    ],
    actions: [
      { id: "convert", title: "Convert" },
      { id: "copy", title: "Copy" },
    ],
    run(action, values, ctx) {
      expectTypeOf(action).toEqualTypeOf<"convert" | "copy">();
      expectTypeOf(values.input).toEqualTypeOf<string>();
      expectTypeOf(values.mode).toEqualTypeOf<"all" | "first">();
      expectTypeOf(values.files).toEqualTypeOf<string[]>();
      expectTypeOf(values.count).toEqualTypeOf<number>();
      expectTypeOf(values.trim).toEqualTypeOf<boolean>();
      expectTypeOf(values.headers).toEqualTypeOf<{ name: string; value: string }[]>();
      expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
      return [status("Done", "positive"), text(values.input.toUpperCase()), table({ Mode: values.mode })];
    },
  });

  it("returns the definition itself, whose spec part is a valid tool spec", async () => {
    const spec = toolSpecSchema.parse(JSON.parse(JSON.stringify(upper)));
    expect(spec.id).toBe("upper");
    expect(spec.fields).toHaveLength(6);
    expect(typeof upper.run).toBe("function");
  });

  it("runs with the values it is given", async () => {
    const blocks = await upper.run(
      "convert",
      { input: "abc", mode: "all", files: [], count: 1, trim: false, headers: [] },
      {} as ToolContext,
    );
    expect(blocks).toEqual([
      { type: "status", text: "Done", tone: "positive" },
      { type: "text", value: "ABC" },
      { type: "table", rows: [{ name: "Mode", value: "all" }] },
    ]);
  });

  it("types values the same inside defineExtension's tools", () => {
    const extension = defineExtension({
      tools: {
        indent: tool({
          id: "indent",
          title: "Indent",
          icon: "text.alignleft",
          fields: [
            { id: "input", type: "code", language: "json" },
            {
              id: "width",
              type: "choice",
              options: [
                { id: "2", title: "2" },
                { id: "4", title: "4" },
              ],
              default: "2",
            },
            { id: "kinds", type: "file", types: ["public.json"], multiple: true },
            { id: "headers", type: "pairs", default: [{ name: "Accept", value: "*/*" }] },
          ],
          run(action, values) {
            expectTypeOf(values.input).toEqualTypeOf<string>();
            expectTypeOf(values.width).toEqualTypeOf<"2" | "4">();
            expectTypeOf(values.kinds).toEqualTypeOf<string[]>();
            return text(values.input);
          },
        }),
      },
    });
    expect(Object.keys(extension.tools ?? {})).toEqual(["indent"]);
  });

  it("refuses an unknown field type at compile time", () => {
    tool({
      id: "bad",
      title: "Bad",
      icon: "x",
      // @ts-expect-error "colour" is not a field type
      fields: [{ id: "c", type: "colour" }],
      run: () => [],
    });
  });

  it("types drop actions", () => {
    const shrink = tool({
      id: "shrink",
      title: "Shrink",
      icon: "photo",
      dropActions: [{ id: "shrink", title: "Shrink", icon: "arrow.down", accepts: ["public.image"] }],
      run: () => [],
      drop(action, files) {
        expectTypeOf(action).toEqualTypeOf<"shrink">();
        return { message: `Shrunk ${files.length}`, outputs: [] };
      },
    });
    expect(shrink.drop?.("shrink", ["/a.png"], {} as ToolContext)).toEqual({ message: "Shrunk 1", outputs: [] });
  });
});
