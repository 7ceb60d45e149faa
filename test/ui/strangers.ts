/**
 * A fixture extension that writes what an attacker would: markup, a
 * huge label, and asks to open a `javascript:` page.
 */
/**
 * The longest description a manifest may hold (1,000 characters); the page clips it to 500. A 1 MB string is clipped
 * the same way (ui/src/format/text.test.ts); no entry point takes one any more.
 */
export const STRANGER_SVC = {
  id: "com.example.stranger",
  title: "Stranger <b>bold</b>",
  interval: "1h",
  description: "y".repeat(1000),
};

export function strangerCode(): string {
  return `
module.exports = { default: {
  async update(ctx) {
    await ctx.emit({ key: "markup", title: "<img src=x onerror=window.__pwned=1>", subtitle: "<script>window.__pwned=2</script>", layout: "stat",
      data: { value: { type: "text", value: "<svg onload=window.__pwned=3>" }, label: "<a href=javascript:window.__pwned=5>x</a>" },
      facts: [{ label: "file", value: "<iframe src=javascript:window.__pwned=6>" }],
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
