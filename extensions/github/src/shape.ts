/**
 * GitHub's JSON, read into the few fields the blips show. Everything here is a stranger's text:
 * it is read, never trusted — addresses are rebuilt from their parts on github.com, numbers
 * checked, and whatever is missing left out.
 */

/** A pull request from the search API (`GET /search/issues`). */
export interface PullRequest {
  /** `owner/name` */
  repo: string;
  number: number;
  title: string;
  author?: string;
  updatedAt?: string;
  draft: boolean;
  /** The API address of the pull request itself (its head commit is there). */
  apiUrl: string;
  /** Where it opens: https://github.com/<repo>/pull/<number>. */
  htmlUrl: string;
}

export interface Search {
  total: number;
  pulls: PullRequest[];
}

/** One unread notification thread (`GET /notifications`). */
export interface Thread {
  id: string;
  title: string;
  repo: string;
  reason: string;
  updatedAt?: string;
  htmlUrl: string;
}

/** What a pull request's checks come to (`GET /repos/{repo}/commits/{sha}/check-runs`). */
export interface Checks {
  state?: "success" | "failure" | "running";
  text: string;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const string = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A repository name as GitHub allows it: owner and name of letters, digits, `-`, `_`, `.`. */
const REPO = /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/;
const API_REPO = /^https:\/\/api\.github\.com\/repos\/([A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100})(\/.*)?$/;

/** `owner/name` from an API address such as https://api.github.com/repos/octo/web/pulls/42. */
export function repoOf(apiUrl: unknown): string | undefined {
  const match = API_REPO.exec(string(apiUrl) ?? "");
  return match?.[1];
}

/** Open pull requests from a search answer; issues and anything malformed are left out. */
export function readSearch(json: unknown): Search {
  const body = record(json);
  const pulls: PullRequest[] = [];
  for (const raw of list(body.items)) {
    const item = record(raw);
    const pull = record(item.pull_request);
    const repo = repoOf(item.repository_url);
    const number = item.number;
    const title = string(item.title);
    const apiUrl = string(pull.url);
    if (!repo || typeof number !== "number" || !Number.isInteger(number) || !title || !apiUrl) continue;
    if (repoOf(apiUrl) !== repo) continue;
    pulls.push({
      repo,
      number,
      title,
      author: string(record(item.user).login),
      updatedAt: string(item.updated_at),
      draft: item.draft === true,
      apiUrl,
      htmlUrl: `https://github.com/${repo}/pull/${number}`,
    });
  }
  const total = typeof body.total_count === "number" ? body.total_count : pulls.length;
  return { total, pulls };
}

/** The head commit of a pull request (`GET /repos/{repo}/pulls/{number}`). */
export function readHeadSha(json: unknown): string | undefined {
  const sha = string(record(record(json).head).sha);
  return sha && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined;
}

/** Conclusions GitHub draws as a failed check. */
const FAILED = new Set(["failure", "timed_out", "cancelled", "action_required", "startup_failure"]);

/** All check runs of a commit, summed up: failing first, then running, then passed. */
export function readChecks(json: unknown): Checks {
  const runs = list(record(json).check_runs).map(record);
  if (runs.length === 0) return { text: "No checks" };
  const failing = runs.filter((run) => run.status === "completed" && FAILED.has(String(run.conclusion))).length;
  const running = runs.filter((run) => run.status !== "completed").length;
  const of = `${runs.length} check${runs.length === 1 ? "" : "s"}`;
  if (failing > 0) return { state: "failure", text: `${failing} of ${of} failing` };
  if (running > 0) return { state: "running", text: `${running} of ${of} running` };
  return { state: "success", text: runs.length === 1 ? "Check passed" : `${runs.length} checks passed` };
}

/** Where a notification opens on github.com, rebuilt from its subject's API address. */
function threadUrl(subject: Record<string, unknown>, repo: string): string {
  const path = /^https:\/\/api\.github\.com\/repos\/([^/]+\/[^/]+)\/(pulls|issues|commits)\/([0-9a-f]{1,40})$/.exec(
    string(subject.url) ?? "",
  );
  const [, where, kind, id] = path ?? [];
  if (!where || !REPO.test(where)) return `https://github.com/${repo}`;
  if (kind === "pulls" && /^\d+$/.test(id)) return `https://github.com/${where}/pull/${id}`;
  if (kind === "issues" && /^\d+$/.test(id)) return `https://github.com/${where}/issues/${id}`;
  if (kind === "commits") return `https://github.com/${where}/commit/${id}`;
  return `https://github.com/${repo}`;
}

/** Unread notification threads, newest first as GitHub lists them. */
export function readNotifications(json: unknown): Thread[] {
  const threads: Thread[] = [];
  for (const raw of list(json)) {
    const thread = record(raw);
    const subject = record(thread.subject);
    const repo = string(record(thread.repository).full_name);
    const id = string(thread.id);
    const title = string(subject.title);
    if (!id || !/^\d{1,20}$/.test(id) || !title || !repo || !REPO.test(repo) || thread.unread === false) continue;
    threads.push({
      id,
      title,
      repo,
      reason: (string(thread.reason) ?? "").replace(/_/g, " "),
      updatedAt: string(thread.updated_at),
      htmlUrl: threadUrl(subject, repo),
    });
  }
  return threads;
}
