/**
 * GitHub with @svc/testkit (`svckit test`), offline: every answer comes from a recording in
 * test/recordings/, written by hand from GitHub's documented responses (each file's "source"
 * says where). The test clock starts at 2025-01-06T09:00:00Z.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, type LoadOptions } from "@svc/testkit";

/** A token of GitHub's documented shape; never sent anywhere (the recordings answer). */
const TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const REVIEWS =
  "https://api.github.com/search/issues?q=is%3Aopen%20is%3Apr%20review-requested%3A%40me%20archived%3Afalse&sort=updated&per_page=20";

async function load(recording: string, options: LoadOptions = {}) {
  return loadExtension(".", {
    preferences: { token: TOKEN },
    recording: `test/recordings/${recording}.json`,
    ...options,
  });
}

type Item = {
  id: string;
  title: string;
  subtitle?: string;
  state?: string;
  icon?: string;
  url?: string;
  value?: unknown;
};
const itemsOf = (blip: { data: unknown } | undefined) => (blip?.data as { items: Item[] }).items;

test("without a token: one blip saying what to set, nothing made up, nothing asked", async (t) => {
  const ext = await loadExtension(".", { recording: "test/recordings/nothing.json" });
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.github/account"],
  );
  const account = ext.blip("account");
  assert.equal(account?.title, "GitHub");
  assert.equal(account?.icon, "person.badge.key");
  assert.deepEqual(account?.data, {
    value: { type: "text", value: "No token" },
    label: 'Set "Personal access token" in Settings (scopes: repo, notifications)',
  });
  assert.deepEqual(ext.fetches, []);
});

test("a token cleared: what the earlier token fetched is dropped too", async (t) => {
  const kept = { "https://api.github.com/notifications?per_page=20": { value: [{ id: "1", title: "Greetings" }] } };
  const ext = await loadExtension(".", { recording: "test/recordings/nothing.json", storage: { "http.cache": kept } });
  t.after(() => ext.dispose());
  await ext.run("preferences");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.github/account"],
  );
  assert.equal(await ext.storage.get("http.cache"), undefined);
  assert.deepEqual(ext.fetches, []);
});

test("signed in: review requests, my pull requests with their checks, unread notifications", async (t) => {
  const ext = await load("signed-in");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(ext.blips.map((b) => b.id).sort(), [
    "app.svc.github/inbox",
    "app.svc.github/mine",
    "app.svc.github/reviews",
  ]);

  const reviews = ext.blip("reviews");
  assert.equal(reviews?.title, "Review requests");
  assert.equal(reviews?.layout, "list");
  assert.equal(reviews?.icon, "eye");
  assert.deepEqual(itemsOf(reviews), [
    {
      id: "pr-octocat/Hello-World#1347",
      title: "Amazing new feature",
      subtitle: "octocat/Hello-World#1347 · hubot · 2h ago",
      state: "waiting",
      url: "https://github.com/octocat/Hello-World/pull/1347",
    },
  ]);

  const mine = ext.blip("mine");
  assert.equal(mine?.title, "My pull requests");
  assert.equal(mine?.state, "failure", "one of my pull requests has a failing check");
  assert.deepEqual(
    itemsOf(mine).map((i) => [i.title, i.state, i.icon, i.value]),
    [
      ["Fix the login redirect", "failure", "xmark.circle", { type: "text", value: "1 of 2 checks failing" }],
      ["Update the README", "success", "checkmark.circle", { type: "text", value: "Check passed" }],
    ],
  );

  const inbox = ext.blip("inbox");
  assert.equal(inbox?.title, "Notifications");
  assert.equal(inbox?.icon, "bell.badge");
  assert.deepEqual(
    itemsOf(inbox).map((i) => [i.id, i.title, i.subtitle, i.url]),
    [
      [
        "t-1",
        "Greetings",
        "octokit/octokit.rb · subscribed · 5m ago",
        "https://github.com/octokit/octokit.rb/issues/123",
      ],
      [
        "t-2",
        "Amazing new feature",
        "octocat/Hello-World · review requested · 2h ago",
        "https://github.com/octocat/Hello-World/pull/1347",
      ],
    ],
  );
  const actions = (itemsOf(inbox)[0] as { actions?: unknown }).actions;
  assert.deepEqual(actions, [
    {
      id: "open",
      title: "Open",
      icon: "arrow.up.right.square",
      url: "https://github.com/octokit/octokit.rb/issues/123",
    },
    { id: "read", title: "Mark read", icon: "checkmark", dismisses: true },
  ]);
  // Every list goes stale when no update comes for 5 minutes (offline, asleep, paused).
  for (const key of ["reviews", "mine", "inbox"])
    assert.equal(ext.blip(key)?.staleAfter, "2025-01-06T09:05:00.000Z", key);
  assert.equal(ext.nextRunAt, ext.clock.now() + 120_000, "every 2 minutes");
});

test("the next run asks conditionally: GitHub's 304s keep every blip and spend no calls", async (t) => {
  const ext = await load("signed-in");
  t.after(() => ext.dispose());
  await ext.run("launch");
  // What the blips hold, but for how long ago each item changed (the clock moves on).
  const held = () => JSON.stringify(ext.blips.map((b) => b.data)).replace(/ · \d+[mhdw] ago/g, "");
  const first = held();
  const asked = ext.fetches.length;
  assert.deepEqual(
    ext.fetches.map((f) => f.status),
    [200, 200, 200, 200, 200, 200, 200],
  );
  await ext.clock.advance("2m");
  const again = ext.fetches.slice(asked);
  // The same seven calls, each answered 304 only because it carried If-None-Match (or
  // If-Modified-Since for notifications): a plain GET would have got the 200 again.
  assert.deepEqual(
    again.map((f) => f.status),
    [304, 304, 304, 304, 304, 304, 304],
  );
  assert.equal(held(), first);
  assert.match(first, /Fix the login redirect.*1 of 2 checks failing/);
  assert.equal(ext.isStale("reviews"), false);
});

test("Mark read: PATCHes the thread (205) and the item leaves the list", async (t) => {
  const ext = await load("signed-in");
  t.after(() => ext.dispose());
  await ext.run("launch");
  await ext.action("inbox", "read", { itemId: "t-1" });
  assert.deepEqual(ext.fetches.at(-1), {
    method: "PATCH",
    url: "https://api.github.com/notifications/threads/1",
    status: 205,
  });
  assert.deepEqual(
    itemsOf(ext.blip("inbox")).map((i) => i.id),
    ["t-2"],
  );
});

test("checks it may not read (403) leave that row without checks, and the rest shows", async (t) => {
  const ext = await load("checks-forbidden");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(
    itemsOf(ext.blip("mine")).map((i) => [i.title, i.state, i.value]),
    [["Fix the login redirect", undefined, undefined]],
  );
  assert.equal(ext.blip("mine")?.state, undefined);
  assert.equal(ext.blip("account"), undefined);
});

test("nothing waiting: each blip says so, no sample rows", async (t) => {
  const ext = await load("nothing");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(
    ["reviews", "mine", "inbox"].map((key) => [ext.blip(key)?.title, ext.blip(key)?.layout, ext.blip(key)?.data]),
    [
      ["Review requests", "stat", { value: "None waiting" }],
      ["My pull requests", "stat", { value: "None open" }],
      ["Notifications", "stat", { value: "All read" }],
    ],
  );
  assert.equal(ext.blip("account"), undefined);
});

test("rate limited (403, no calls left): says so and waits for GitHub's reset, asking nothing before", async (t) => {
  const ext = await load("rate-limited");
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 1200 });
  const account = ext.blip("account");
  assert.equal(account?.state, "warning");
  assert.deepEqual(account?.data, {
    value: { type: "text", value: "Rate limited" },
    label: "Trying again in 20m",
  });
  assert.equal(ext.nextRunAt, ext.clock.now() + 1_200_000);
  const asked = ext.fetches.length;
  await ext.clock.advance("19m");
  assert.equal(ext.fetches.length, asked, "no call before the reset");
});

test("a secondary limit (429 with Retry-After) waits exactly what GitHub says", async (t) => {
  const ext = await load("secondary-limit");
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 60 });
  assert.deepEqual(ext.blip("account")?.data, {
    value: { type: "text", value: "Rate limited" },
    label: "Trying again in 1m",
  });
});

test("the last call of the window used: the next run waits for the reset, not the interval", async (t) => {
  const ext = await load("last-call");
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 1200 });
  assert.equal(ext.blip("account"), undefined, "nothing went wrong yet");
});

test("a refused token (401): its lists leave, and the blip says what to do", async (t) => {
  const ext = await load("revoked");
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.equal(ext.blips.length, 3);
  await ext.clock.advance("2m");
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.github/account"],
  );
  assert.equal(ext.blip("account")?.state, "failure");
  assert.deepEqual(ext.blip("account")?.data, {
    value: { type: "text", value: "Token refused" },
    label: "Check the extension's settings",
  });
  assert.equal(ext.fetches.at(-1)?.status, 401);
});

test("offline: a connection blip above the last lists, which go stale, and runs back off", async (t) => {
  const ext = await load("offline");
  t.after(() => ext.dispose());
  await ext.run("launch");
  const { nextRunAfter } = await ext.run("interval");
  const account = ext.blip("account");
  assert.equal(account?.icon, "wifi.slash");
  assert.equal(account?.state, "warning");
  assert.deepEqual((account?.data as { value: unknown }).value, { type: "text", value: "No connection" });
  assert.ok(
    nextRunAfter !== undefined && nextRunAfter >= 5 && nextRunAfter <= 10,
    `backs off 5–10 s, got ${nextRunAfter}`,
  );
  assert.deepEqual(ext.fetches.at(-1), { method: "GET", url: REVIEWS, status: 0 });
  // The lists stay as they were, and are drawn stale once their five minutes pass.
  assert.deepEqual(
    ["reviews", "mine", "inbox"].map((key) => ext.isStale(key)),
    [false, false, false],
  );
  await ext.clock.advance("5m");
  assert.deepEqual(
    ["reviews", "mine", "inbox"].map((key) => [ext.blip(key)?.layout, ext.isStale(key)]),
    [
      ["list", true],
      ["list", true],
      ["list", true],
    ],
  );
});
