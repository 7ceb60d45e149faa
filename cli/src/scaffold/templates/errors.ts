/** `errors`: the count of unresolved errors, coloured by how many are new, with an acknowledge button. */
import { COMMON_CODE } from "../snippets.js";
import type { Template } from "../template.js";

const source = `import { age, clip, type Ctx, defineExtension, number, stat } from "@svc/api";

${COMMON_CODE}

/** What your error tracker answers: open errors and the newest one. */
interface ErrorSummary {
  open: number;
  newest?: { message: string; at: string };
  dashboardUrl?: string;
}

const SAMPLE: ErrorSummary = {
  open: 7,
  newest: { message: "TypeError: Cannot read properties of undefined (reading 'id')", at: new Date(Date.now() - 240_000).toISOString() },
};

/** New errors (since the last acknowledge) from which the blip turns red rather than orange. */
const MANY_NEW = 5;

async function show(ctx: Ctx<Prefs>, summary: ErrorSummary, sample: boolean): Promise<void> {
  // The count the person last acknowledged: only errors beyond it count as new. When errors
  // get resolved the mark comes down with them, so the next new one shows.
  let seen = (await ctx.storage.get<number>("acknowledged")) ?? 0;
  if (summary.open < seen) {
    seen = summary.open;
    await ctx.storage.set("acknowledged", seen);
  }
  const fresh = Math.max(0, summary.open - seen);
  await ctx.emit(
    stat("errors", {
      title: titled("Open errors", sample),
      subtitle: sample ? SAMPLE_NOTE : summary.newest ? \`\${clip(summary.newest.message, 60)} · \${age(summary.newest.at)}\` : undefined,
      icon: "exclamationmark.triangle",
      state: fresh === 0 ? "success" : fresh < MANY_NEW ? "warning" : "failure",
      value: number(summary.open),
      label: fresh > 0 ? \`\${fresh} new\` : "nothing new",
      actions: [
        { id: "acknowledge", title: "Acknowledge", icon: "checkmark" },
        ...(summary.dashboardUrl ? [{ id: "open", title: "Open", url: summary.dashboardUrl }] : []),
      ],
    }),
  );
}

async function load(ctx: Ctx<Prefs>): Promise<{ summary: ErrorSummary; sample: boolean }> {
  const url = ctx.preferences.apiUrl?.trim();
  return url ? { summary: await fetchJson<ErrorSummary>(url, ctx.preferences.apiToken), sample: false } : { summary: SAMPLE, sample: true };
}

export default defineExtension<Prefs>({
  async update(ctx) {
    const { summary, sample } = await load(ctx);
    await show(ctx, summary, sample);
  },

  async onAction(ctx, action) {
    if (action.actionId !== "acknowledge") return;
    const { summary, sample } = await load(ctx);
    await ctx.storage.set("acknowledged", summary.open);
    await show(ctx, summary, sample);
    await ctx.notify("Errors acknowledged", \`\${summary.open} open\`);
  },
});
`;

export const errors: Template = {
  name: "errors",
  description: "Open errors from your tracker, orange or red by how many are new, with an acknowledge button",
  icon: "exclamationmark.triangle",
  categories: ["developer"],
  interval: "5m",
  apiExample: "https://api.example.com/errors/summary",
  apiShape: `{ "open": 7, "newest": { "message": "TypeError: …", "at": "2025-03-01T09:30:00Z" },
  "dashboardUrl": "https://example.com/errors" }`,
  source,
  apiSample: {
    open: 7,
    newest: { message: "TypeError: x is undefined", at: "2025-01-06T08:56:00Z" },
    dashboardUrl: "https://example.com/errors",
  },
  tests: `
test("open errors from the API; Acknowledge marks them seen", async (t) => {
  // The clock starts at 2025-01-06T09:00:00Z unless a test says otherwise.
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  await ext.run();
  const errors = () => ext.blip("errors");
  assert.equal(errors()?.state, "failure");
  assert.equal(errors()?.subtitle, "TypeError: x is undefined · 4m ago");
  assert.deepEqual(errors()?.data, { value: { type: "number", value: 7 }, label: "7 new" });

  await ext.action("errors", "acknowledge");
  assert.equal(errors()?.state, "success");
  assert.deepEqual(errors()?.data, { value: { type: "number", value: 7 }, label: "nothing new" });
  assert.deepEqual(ext.host.notifications, [{ title: "Errors acknowledged", body: "7 open" }]);
  assert.equal(await ext.storage.get("acknowledged"), 7);
});
`,
};
