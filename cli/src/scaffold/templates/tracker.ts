/** `tracker`: work items as a list blip, with Done and Snooze buttons kept in storage. */
import { COMMON_CODE } from "../snippets.js";
import type { Template } from "../template.js";

const source = `import {
  age,
  applyTriage,
  type Ctx,
  defineExtension,
  joinLine,
  list,
  type ListItem,
  readTriage,
  TRIAGE,
  triaged,
  triageState,
} from "@svc/api";

${COMMON_CODE}

/** One work item as your tracker's API describes it. */
interface WorkItem {
  id: string;
  title: string;
  project?: string;
  assignee?: string;
  /** ISO time of the last change: an item marked done comes back when it changes again. */
  updatedAt: string;
  url?: string;
}

function sampleItems(now: number): WorkItem[] {
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
  return [
    { id: "SVC-101", title: "Login redirect loops on Safari", project: "web", assignee: "ana", updatedAt: ago(12) },
    { id: "SVC-98", title: "Nightly export misses the last hour", project: "data", assignee: "bo", updatedAt: ago(95) },
    { id: "SVC-97", title: "Update the onboarding copy", project: "web", updatedAt: ago(300) },
    { id: "SVC-93", title: "Rotate the staging certificates", project: "ops", assignee: "cy", updatedAt: ago(1440) },
    { id: "SVC-90", title: "Flaky test: checkout total rounding", project: "web", updatedAt: ago(2880) },
    { id: "SVC-88", title: "Document the webhook retries", project: "docs", updatedAt: ago(5000) },
  ];
}

async function loadItems(ctx: Ctx<Prefs>): Promise<{ items: WorkItem[]; sample: boolean }> {
  const url = ctx.preferences.apiUrl?.trim();
  if (!url) return { items: sampleItems(Date.now()), sample: true };
  return { items: await fetchJson<WorkItem[]>(url, ctx.preferences.apiToken), sample: false };
}

/** Emits the list: open items first, then snoozed ones (soonest to wake first), then done ones. */
async function showItems(ctx: Ctx<Prefs>): Promise<void> {
  const { items, sample } = await loadItems(ctx);
  const book = await readTriage(ctx.storage);
  const changedAt = new Map(items.map((item) => [item.id, item.updatedAt]));
  const rows: ListItem[] = items.map((item) => ({
    id: item.id,
    title: item.title,
    subtitle: joinLine([item.id, item.project, item.assignee, age(item.updatedAt)]),
    url: item.url,
    actions: [TRIAGE.done, TRIAGE.snooze],
  }));
  const open = items.filter((item) => triageState(book, item.id, Date.now(), item.updatedAt) === "open").length;
  await ctx.emit(
    list("work", {
      title: titled(open === 1 ? "1 open item" : \`\${open} open items\`, sample),
      subtitle: sample ? SAMPLE_NOTE : undefined,
      icon: "checklist",
      state: open > 0 ? "waiting" : "success",
      items: triaged(rows, book, { changedAt: (row) => changedAt.get(row.id) }).slice(0, 5),
      total: items.length,
    }),
  );
}

export default defineExtension<Prefs>({
  async update(ctx) {
    await showItems(ctx);
  },

  async onAction(ctx, action) {
    // Done, Snooze ("3h", "tomorrow", "monday"…), Wake and Reopen are kept in ctx.storage.
    const workingHours = await ctx.workingHours();
    if (await applyTriage(ctx.storage, action, { workingHours })) await showItems(ctx);
  },
});
`;

export const tracker: Template = {
  name: "tracker",
  description: "Open work items as a list, with Done and Snooze on each item",
  icon: "checklist",
  categories: ["productivity"],
  interval: "5m",
  apiExample: "https://api.example.com/issues?assignee=me",
  apiShape: `[{ "id": "SVC-101", "title": "Login redirect loops on Safari", "project": "web", "assignee": "ana",
  "updatedAt": "2025-03-01T09:30:00Z", "url": "https://example.com/issues/SVC-101" }]`,
  source,
  apiSample: [
    {
      id: "SVC-101",
      title: "Login redirect loops on Safari",
      project: "web",
      assignee: "ana",
      updatedAt: "2025-01-06T08:48:00Z",
      url: "https://example.com/issues/SVC-101",
    },
    { id: "SVC-98", title: "Nightly export misses the last hour", project: "data", updatedAt: "2025-01-06T07:00:00Z" },
    { id: "SVC-97", title: "Update the onboarding copy", project: "web", updatedAt: "2025-01-05T09:00:00Z" },
  ],
  tests: `
test("open items from the API; Done moves one to the end of the list", async (t) => {
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  await ext.run();
  assert.equal(ext.blip("work")?.title, "3 open items");
  assert.equal(ext.blip("work")?.state, "waiting");

  await ext.action("work", "triage.done", { itemId: "SVC-101" });
  assert.equal(ext.blip("work")?.title, "2 open items");
  const items = (ext.blip("work")?.data as { items: { id: string; state?: string }[] }).items;
  assert.deepEqual(
    items.map((item) => [item.id, item.state]),
    [["SVC-98", undefined], ["SVC-97", undefined], ["SVC-101", "success"]],
  );
});

test("a snoozed item comes back when the clock passes its time", async (t) => {
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  await ext.run();
  await ext.action("work", "triage.snooze", { itemId: "SVC-98", input: "3h" });
  assert.equal(ext.blip("work")?.title, "2 open items");
  await ext.clock.advance("2h55m");
  assert.equal(ext.blip("work")?.title, "2 open items");
  // The next scheduled run after 12:00 (every 5 minutes) shows it again.
  await ext.clock.advance("5m");
  assert.equal(ext.blip("work")?.title, "3 open items");
});
`,
};
