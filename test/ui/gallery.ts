/**
 * A fixture extension that shows every layout with every field `@svc/api` defines, and answers
 * actions: `approve` on a list row dismisses it (the next update leaves it out), `fail` throws,
 * `slow` waits for a release file, `reply` echoes its input as a notify, `open` asks to open a page.
 */
import { join } from "node:path";
import { writeExtension } from "../host/harness.js";
import type { UiSceneOptions } from "./harness.js";

const NOW = "Date.now()";

export const GALLERY_SVC = {
  id: "com.example.gallery",
  title: "Gallery",
  description: "Every layout, every field.",
  interval: "1h",
  permissions: { network: ["api.example.com"] },
  preferences: [
    { name: "token", type: "password", title: "API token", required: true, description: "From your account page." },
    { name: "team", type: "textfield", title: "Team", placeholder: "platform", default: "platform" },
    { name: "notes", type: "textfield", multiline: true, title: "Notes" },
    { name: "verbose", type: "checkbox", title: "Verbose", default: false },
    {
      name: "region",
      type: "dropdown",
      title: "Region",
      default: "eu",
      data: [
        { title: "Europe", value: "eu" },
        { title: "United States", value: "us" },
      ],
    },
    { name: "limit", type: "number", title: "Limit", default: 5, blips: ["list"] },
  ],
};

export function galleryCode(): string {
  return `
let approved = new Set();
function blips(ctx) {
  const now = ${NOW};
  const iso = (ms) => new Date(ms).toISOString();
  return [
    { key: "stat", title: "Revenue", subtitle: "Today", icon: "dollarsign.circle", state: "success", layout: "stat",
      data: { value: { type: "currency", value: { amount: 1250.5, currency: "EUR" } }, label: "Today", delta: { type: "percent", value: 0.12 }, series: [3, 5, 4, 8, 6, 9, 12] },
      facts: [{ label: "Orders", value: { type: "number", value: 42 } }, { label: "Refunds", value: { type: "currency", value: { amount: -20, currency: "EUR" } } }, { label: "Since", value: { type: "date", value: iso(now - 3 * 3600e3) } }, { label: "Avg time", value: { type: "duration", value: 95000 } }] },
    { key: "progress", title: "Deploy api", subtitle: "main · 4f2a91c", icon: "rocket", state: "running", layout: "progress",
      data: { fraction: 0.4, step: "Uploading assets", stages: [{ title: "Build", state: "done" }, { title: "Test", state: "done" }, { title: "Deploy", state: "running" }, { title: "Verify", state: "pending" }, { title: "Lint", state: "skipped" }, { title: "Canary", state: "failed" }] },
      actions: [{ id: "fail", title: "Cancel", role: "destructive" }, { id: "slow", title: "Retry" }] },
    { key: "session", title: "Agent at work", icon: "sparkles", state: "running", layout: "session",
      data: { startedAt: iso(now - 754000), step: "Editing src/app.ts" }, choices: [{ id: "reply", title: "Keep going" }], actions: [{ id: "reply-input", title: "Reply", input: { placeholder: "Tell the agent" } }] },
    { key: "list", title: "Reviews", icon: "arrow.triangle.branch", state: "waiting", layout: "list",
      data: { total: 12, items: [
        { id: "pr-42", title: "Fix login redirect", subtitle: "octo/web · 2 h", state: "waiting", url: "https://github.com/octo/web/pull/42", actions: [{ id: "approve", title: "Approve", role: "primary", dismisses: true }] },
        { id: "pr-43", title: "Bump deps", subtitle: "octo/api", value: { type: "number", value: 3, unit: "files" }, actions: [{ id: "approve", title: "Approve", role: "primary", dismisses: true }, { id: "fail", title: "Reject", role: "destructive", dismisses: true }] },
        { id: "pr-44", title: "Docs typo", icon: "doc", state: "success" }
      ].filter((item) => !approved.has(item.id)) } },
    { key: "score", title: "Lakers at Celtics", icon: "basketball", state: "running", layout: "score",
      data: { home: { name: "Lakers", score: 98, icon: "basketball" }, away: { name: "Celtics", score: 101 }, period: "Q4 2:31" } },
    { key: "countdown", title: "Standup", subtitle: "Room 4", icon: "timer", layout: "countdown",
      data: { endsAt: iso(now + 25 * 60e3 + 30e3), startedAt: iso(now - 5 * 60e3) }, url: "https://meet.example.com/standup", actions: [{ id: "open", title: "Join" }] },
    { key: "meter", title: "API quota", icon: "chart.bar", state: "warning", layout: "meter",
      data: { meters: [{ label: "API calls", fraction: 0.83, value: "4,150 / 5,000", resetsAt: iso(now + 42 * 60e3) }, { label: "Disk", fraction: 0.71 }, { label: "Memory", fraction: 0.4, value: { type: "percent", value: 0.4 } }] } },
    { key: "stale", title: "Build cache", subtitle: "quiet since an hour", icon: "server", state: "idle", layout: "stat", staleAfter: iso(now - 60e3), data: { value: 17, label: "hits" } },
  ];
}
module.exports = { default: {
  async update(ctx) {
    for (const blip of blips(ctx)) await ctx.emit(blip);
    return {};
  },
  async onAction(ctx, action) {
    if (action.actionId === "fail") throw new Error("the deploy service said no");
    if (action.actionId === "slow") { await new Promise((r) => setTimeout(r, 1500)); return; }
    if (action.actionId === "reply" || action.actionId === "reply-input") { ctx.notify("Agent", "You said: " + (action.input ?? "keep going")); return; }
    if (action.actionId === "open") { ctx.openURL("https://meet.example.com/standup"); return; }
    if (action.actionId === "approve") {
      approved.add(action.itemId);
      for (const blip of blips(ctx)) if (blip.key === "list") await ctx.emit(blip);
    }
  },
} };
`;
}

/** A scene with the gallery installed and all its blips shown. */
export const galleryScene: UiSceneOptions = {
  setup: (world) => writeExtension(join(world.bundled, "gallery"), { svc: GALLERY_SVC, code: galleryCode() }),
  ready: (host) => host.waitFor((e) => e.type === "blip" && e.id === `${GALLERY_SVC.id}/stale`, { timeoutMs: 15_000 }),
};
