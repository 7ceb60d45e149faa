/**
 * Status & Uptime with @svc/testkit (`svckit test`): hand-written recordings of Statuspage's
 * documented summary.json and of plain HTTP answers (test/recordings/*.json, each naming its
 * source), the url options set as the person would type and allow them, and an unanswered loopback
 * address for "nothing answers".
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, unansweredAddress, type TestExtension } from "@svc/testkit";
import { siteItem, siteState, siteTitle } from "../src/sites.js";
import { indicatorState, readSummary, summaryUrl } from "../src/statuspage.js";

type Item = { id: string; title: string; subtitle?: string; state?: string; value?: unknown; url?: string };
const items = (ext: TestExtension, key: string) => (ext.blip(key)?.data as { items: Item[] }).items;

async function load(t: { after(fn: () => unknown): void }, options: Parameters<typeof loadExtension>[1]) {
  const ext = await loadExtension(".", options);
  t.after(() => ext.dispose());
  return ext;
}

test("nothing chosen: one idle blip that says what to set, and no requests", async (t) => {
  const ext = await load(t, { recording: "test/recordings/watching.json" });
  await ext.run("launch");
  assert.deepEqual(
    ext.blips.map((b) => [b.id, b.state, b.data]),
    [
      [
        "app.svc.status/setup",
        "idle",
        { value: "Nothing to watch yet", label: "Add a status page or one of your URLs in Settings" },
      ],
    ],
  );
});

test("status pages and own URLs: one row each, the worst state on top, stale after 5 minutes", async (t) => {
  const ext = await load(t, {
    recording: "test/recordings/watching.json",
    preferences: {
      page1: "https://www.githubstatus.com",
      page2: "https://status.openai.com/",
      site1: "https://example.com/health",
      site2: "https://api.example.com/ping",
    },
  });
  assert.equal(await ext.run("launch").then((r) => r.nextRunAfter), undefined);
  assert.equal(ext.blip("setup"), undefined);
  const services = ext.blip("services");
  assert.equal(services?.title, "Services");
  assert.equal(services?.state, "warning");
  assert.equal(services?.subtitle, "1 of 2 not well");
  assert.equal(services?.staleAfter, "2025-01-06T09:05:00.000Z");
  assert.deepEqual(items(ext, "services"), [
    {
      id: "page1",
      title: "GitHub",
      state: "success",
      value: "All Systems Operational",
      url: "https://www.githubstatus.com",
    },
    {
      id: "page2",
      title: "OpenAI",
      subtitle: "Elevated error rates on the API",
      state: "warning",
      value: "1 incident",
      url: "https://stspg.io/abc123",
    },
  ]);
  const sites = ext.blip("sites");
  assert.equal(sites?.title, "My URLs");
  assert.equal(sites?.state, "failure");
  assert.deepEqual(items(ext, "sites"), [
    {
      id: "site1",
      title: "example.com/health",
      subtitle: "200",
      state: "success",
      value: { type: "number", value: 0, unit: "ms" },
      url: "https://example.com/health",
    },
    {
      id: "site2",
      title: "api.example.com/ping",
      subtitle: "503",
      state: "failure",
      value: { type: "number", value: 0, unit: "ms" },
      url: "https://api.example.com/ping",
    },
  ]);
  assert.deepEqual(ext.denials, []);
  // The next run comes on the 2-minute interval; with no run for 5 minutes the blips go stale.
  assert.equal(ext.nextRunAt, ext.clock.now() + 120_000);
  assert.equal(ext.isStale("services"), false);
});

test("a rate limit with Retry-After: that row says so, and the next run waits exactly that long", async (t) => {
  const ext = await load(t, {
    recording: "test/recordings/rate-limited.json",
    preferences: { page1: "https://www.githubstatus.com" },
  });
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 120 });
  assert.equal(ext.nextRunAt, ext.clock.now() + 120_000);
  assert.deepEqual(items(ext, "services"), [
    {
      id: "page1",
      title: "www.githubstatus.com",
      subtitle: "Rate limited",
      state: "warning",
      url: "https://www.githubstatus.com",
    },
  ]);
});

test("a rate limit that names no wait backs off, longer each time in a row", async (t) => {
  const ext = await load(t, {
    recording: "test/recordings/rate-limited-no-wait.json",
    preferences: { page1: "https://www.githubstatus.com" },
  });
  const first = (await ext.run("launch")).nextRunAfter!;
  assert.ok(first >= 5 && first <= 10, `first wait ${first}`);
  const second = (await ext.run()).nextRunAfter!;
  assert.ok(second >= 10 && second <= 20, `second wait ${second}`);
  assert.equal(await ext.storage.get("failures"), 2);
});

test("an address that is no Statuspage page says so on its row", async (t) => {
  const ext = await load(t, {
    recording: "test/recordings/not-statuspage.json",
    preferences: { page1: "https://www.example.org", page3: "https://blog.example.net" },
  });
  await ext.run("launch");
  assert.equal(ext.blip("services")?.state, "failure");
  assert.deepEqual(
    items(ext, "services").map((i) => [i.id, i.subtitle, i.state]),
    [
      ["page1", "Not found: is this a Statuspage page?", "failure"],
      ["page3", "Not a Statuspage summary: check the address", "failure"],
    ],
  );
});

test("nothing answers at all: this computer is offline, said once per blip, and runs back off", async (t) => {
  const ext = await load(t, { preferences: { site1: `${await unansweredAddress()}/` } });
  const { nextRunAfter } = await ext.run("launch");
  assert.ok(nextRunAfter! >= 5 && nextRunAfter! <= 10, `wait ${nextRunAfter}`);
  const sites = ext.blip("sites");
  assert.equal(sites?.layout, "stat");
  assert.equal(sites?.state, "warning");
  assert.equal(sites?.icon, "wifi.slash");
  assert.deepEqual(sites?.data, {
    value: { type: "text", value: "No connection" },
    label: "Trying again on the next run",
  });
  assert.equal(ext.blip("services"), undefined);
});

test("Statuspage's indicators, the summary address, and an own URL's states", () => {
  assert.deepEqual(["none", "minor", "maintenance", "major", "critical"].map(indicatorState), [
    "success",
    "warning",
    "warning",
    "failure",
    "failure",
  ]);
  assert.equal(
    summaryUrl("https://www.githubstatus.com/history?page=2"),
    "https://www.githubstatus.com/api/v2/summary.json",
  );
  assert.equal(readSummary({ posts: [] }), undefined);
  assert.equal(siteTitle("http://192.168.1.10:8080/"), "192.168.1.10:8080");
  // slow: at the limit it is fine, one past it is a warning
  assert.equal(siteState({ ok: true, status: 200, ms: 1500 }, 1500), "success");
  assert.equal(siteState({ ok: true, status: 200, ms: 1501 }, 1500), "warning");
  assert.equal(siteState({ ok: true, status: 301, ms: 10 }, 1500), "success");
  assert.equal(siteState({ ok: true, status: 404, ms: 10 }, 1500), "failure");
  assert.deepEqual(siteItem("s", "https://a.example/x", { ok: true, status: 200, ms: 2400.4 }, 1500), {
    id: "s",
    title: "a.example/x",
    subtitle: "200 · slow",
    state: "warning",
    value: { type: "number", value: 2400, unit: "ms" },
    url: "https://a.example/x",
  });
  assert.equal(
    siteItem("s", "https://a.example/", { ok: false, problem: { kind: "offline", message: "No connection" } }, 1500)
      .subtitle,
    "No answer",
  );
});
