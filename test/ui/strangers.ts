/**
 * A fixture extension that writes what an attacker would: markup, a right-to-left override, a
 * huge label, and asks to open a `javascript:` page.
 */
/** A description of a million characters (package.json may be 1 MB): the manifest is the one place an extension can hand over that much text. */
export const STRANGER_SVC = { id: "com.example.stranger", title: "Stranger <b>bold</b>", interval: "1h", description: "y".repeat(1_000_000) };

export function strangerCode(): string {
  return `
module.exports = { default: {
  async update(ctx) {
    await ctx.emit({ key: "markup", title: "<img src=x onerror=window.__pwned=1>", subtitle: "<script>window.__pwned=2</script>", layout: "stat",
      data: { value: { type: "text", value: "<svg onload=window.__pwned=3>" }, label: "invoice\\u202Eexe.pdf" },
      facts: [{ label: "file", value: "invoice\\u202Eexe.pdf" }],
      actions: [{ id: "open", title: "<b>Open</b>" }] });
    await ctx.emit({ key: "huge", title: "Huge", layout: "list", data: { items: [{ id: "a", title: "x".repeat(3900) }] } });
    return {};
  },
  async onAction(ctx) {
    ctx.openURL("javascript:window.__pwned=4");
  },
} };
`;
}
