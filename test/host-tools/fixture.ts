/**
 * A tools-only fixture extension for the host's tool routes, as plain CommonJS (what
 * `svckit build` makes), with the `dist/tools.json` a build would write — except that the file's
 * `echo` title differs from the code's, so a test can see which one the host lists.
 */
export const TOOLS_ID = "com.example.tools";

const echoFields = [
  { id: "input", type: "text", default: "hi" },
  { id: "count", type: "number", min: 1, max: 10, default: 3 },
  { id: "flag", type: "toggle" },
  {
    id: "pick",
    type: "choice",
    options: [
      { id: "one", title: "One" },
      { id: "two", title: "Two" },
    ],
  },
  { id: "source", type: "code", language: "json" },
  { id: "headers", type: "pairs" },
  { id: "file", type: "file" },
];

const specs = {
  echo: {
    id: "echo",
    title: "Echo",
    icon: "arrow.uturn.left",
    summary: "Says back what it got",
    category: "developer",
    fields: echoFields,
    actions: [
      { id: "go", title: "Go", role: "primary" },
      { id: "again", title: "Again" },
    ],
    clipboardKinds: ["json"],
  },
  plain: { id: "plain", title: "Plain", icon: "circle" },
  fail: {
    id: "fail",
    title: "Fail",
    icon: "xmark",
    actions: [
      { id: "throw", title: "Throw" },
      { id: "invalid", title: "Invalid" },
      { id: "hang", title: "Hang" },
      { id: "slow", title: "Slow" },
    ],
  },
  read: {
    id: "read",
    title: "Read",
    icon: "doc",
    fields: [{ id: "file", type: "file" }],
    actions: [
      { id: "read", title: "Read" },
      { id: "steal", title: "Steal" },
    ],
  },
  hash: {
    id: "hash",
    title: "Hash",
    icon: "number",
    dropActions: [{ id: "list", title: "List", icon: "list.bullet", accepts: ["public.item"], minimumFiles: 2 }],
  },
  picture: {
    id: "picture",
    title: "Picture",
    icon: "photo",
    summary: "Draws a dot",
    fields: [{ id: "size", type: "number", min: 1, max: 4, default: 1, unit: "px" }],
  },
};

/** A 1×1 PNG. */
export const DOT_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

export const FIXTURE_CODE = `
const specs = ${JSON.stringify(specs)};
const code = (text) => ({ type: "code", text, language: "json" });
module.exports = { default: { tools: {
  echo: { ...specs.echo, run: (action, values) => [code(JSON.stringify({ action, values }))] },
  plain: { ...specs.plain, run: (action) => [{ type: "status", text: "plain " + action, tone: "positive" }] },
  fail: { ...specs.fail, run: async (action) => {
    if (action === "throw") throw new Error("bad input: try again");
    if (action === "invalid") return [{ type: "nope" }];
    if (action === "slow") { await new Promise((r) => setTimeout(r, 3000)); return []; }
    return new Promise(() => {});
  } },
  read: { ...specs.read, run: async (action, values, ctx) => {
    if (action === "steal") return [{ type: "image", path: "/etc/hostname" }, { type: "files", paths: ["/etc/hostname"] }, { type: "status", text: "tried" }];
    const [file] = values.file;
    const text = await ctx.files.read(file);
    await ctx.files.write("copy.txt", text);
    return [{ type: "text", value: text }, { type: "image", path: file }, { type: "files", paths: [ctx.dataDir + "/copy.txt", file] }];
  } },
  picture: { ...specs.picture, run: async (_action, _values, ctx) => {
    await ctx.files.write("dot.png", ${JSON.stringify(DOT_PNG)}, { encoding: "base64" });
    return [{ type: "image", path: ctx.dataDir + "/dot.png" }, { type: "color", hex: "#ff8800" }];
  } },
  hash: { ...specs.hash, run: () => [], drop: async (action, files, ctx) => {
    await ctx.files.write("list.txt", files.join("\\n"));
    return { message: action + " " + files.length, outputs: [ctx.dataDir + "/list.txt", "/etc/hostname"], copiedText: files.join(",") };
  } },
} } };
`;

/** What `svckit build` would write, but with another title for `echo` (the code's wins once loaded). */
export const TOOLS_FILE = Object.values(specs).map((spec) =>
  spec.id === "echo" ? { ...spec, title: "Echo (from file)" } : spec,
);
