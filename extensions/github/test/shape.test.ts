/**
 * Reading GitHub's JSON: what is kept, and what a stranger's text cannot do (an address outside
 * github.com, a malformed item).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readChecks, readNotifications, readSearch } from "../src/shape.js";

const run = (status: string, conclusion: string | null) => ({ status, conclusion });

test("checks: failing before running before passed; none is said", () => {
  assert.deepEqual(readChecks({ check_runs: [] }), { text: "No checks" });
  assert.deepEqual(readChecks({ check_runs: [run("completed", "success"), run("in_progress", null)] }), {
    state: "running",
    text: "1 of 2 checks running",
  });
  assert.deepEqual(
    readChecks({ check_runs: [run("queued", null), run("completed", "timed_out"), run("completed", "skipped")] }),
    { state: "failure", text: "1 of 3 checks failing" },
  );
  assert.deepEqual(readChecks({ check_runs: [run("completed", "neutral"), run("completed", "skipped")] }), {
    state: "success",
    text: "2 checks passed",
  });
  assert.deepEqual(readChecks("not json we know"), { text: "No checks" });
});

test("search: issues and malformed items are left out; links are rebuilt on github.com", () => {
  const item = {
    number: 7,
    title: "Fix it",
    repository_url: "https://api.github.com/repos/octo/web",
    html_url: "https://evil.example/phish",
    pull_request: { url: "https://api.github.com/repos/octo/web/pulls/7" },
  };
  const read = readSearch({
    total_count: 40,
    items: [
      item,
      { ...item, pull_request: undefined }, // an issue
      { ...item, number: "7" },
      { ...item, pull_request: { url: "https://api.github.com/repos/other/repo/pulls/7" } },
      { ...item, repository_url: "https://evil.example/repos/octo/web" },
    ],
  });
  assert.equal(read.total, 40);
  assert.deepEqual(
    read.pulls.map((p) => [p.repo, p.number, p.htmlUrl]),
    [["octo/web", 7, "https://github.com/octo/web/pull/7"]],
  );
});

test("notifications: read ones and malformed ones are left out; a subject elsewhere opens the repository", () => {
  const thread = {
    id: "9",
    unread: true,
    reason: "review_requested",
    repository: { full_name: "octo/web" },
    subject: { title: "Fix it", url: "https://api.github.com/repos/octo/web/pulls/7" },
  };
  const read = readNotifications([
    thread,
    { ...thread, id: "10", unread: false },
    { ...thread, id: "../../x" },
    { ...thread, id: "11", subject: { title: "Elsewhere", url: "https://evil.example/repos/a/b/pulls/1" } },
    { ...thread, id: "12", repository: { full_name: "not a repo" } },
  ]);
  assert.deepEqual(
    read.map((t) => [t.id, t.reason, t.htmlUrl]),
    [
      ["9", "review requested", "https://github.com/octo/web/pull/7"],
      ["11", "review requested", "https://github.com/octo/web"],
    ],
  );
});
