/**
 * What SPEC.md fills in for every tool-spec key a tool leaves out: the canonical form
 * (`decodeToolSpec`, dist/tools.json, `extension.tools`) of a tool that states only its id,
 * title and icon is those three plus exactly this.
 *
 * @example
 * expect(decodes({ id: "b64", title: "Base64", icon: "textformat" })).toEqual({ id: "b64", title: "Base64", icon: "textformat", ...TOOL_SPEC_DEFAULTS });
 */
export const TOOL_SPEC_DEFAULTS = {
  summary: "",
  category: "everyday",
  fields: [],
  actions: [],
  live: false,
  remembersInputs: true,
  dropActions: [],
  clipboardKinds: [],
};
