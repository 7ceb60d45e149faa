/**
 * `defineExtension` and `tool`: identity functions that exist for their types, so an editor
 * checks the extension object and infers each tool's `values` from its fields.
 */
import type { Extension, PreferenceValue, ToolDefinition, ToolFieldInput } from "../types.js";

/**
 * Declares the extension object; export it as the module's default.
 *
 * @example
 * export default defineExtension({
 *   async update(ctx) {
 *     await ctx.emit(stat("hello", { title: "Hello", value: "world" }));
 *     return { nextRunAfter: 300 };
 *   },
 * });
 */
export function defineExtension<Prefs extends Record<string, PreferenceValue> = Record<string, PreferenceValue>>(
  extension: Extension<Prefs>,
): Extension<Prefs> {
  return extension;
}

/**
 * Declares a tool: its spec (id, title, icon, fields, actions …; see SPEC.md "Tool spec") and
 * its `run(action, values, ctx)` (and `drop(action, files, ctx)` for drop actions). `values`
 * is typed from `fields`; `action` from `actions`.
 *
 * @example
 * tool({
 *   id: "upper", title: "Upper case", icon: "textformat",
 *   fields: [{ id: "input", type: "text" }],
 *   actions: [{ id: "convert", title: "Convert" }],
 *   run: (action, values) => [text(values.input.toUpperCase())],
 * })
 */
export function tool<
  const Fields extends ReadonlyArray<ToolFieldInput> = [],
  const ActionId extends string = string,
  const DropId extends string = string,
>(definition: ToolDefinition<Fields, ActionId, DropId>): ToolDefinition<Fields, ActionId, DropId> {
  return definition;
}
