/**
 * GitHub: pull requests waiting for your review, your own open pull requests with their checks,
 * and your unread notifications (Open, Mark read), every 2 minutes from api.github.com with a
 * personal access token kept in the keychain (a password option).
 *
 * Blips: `reviews`, `mine`, `inbox` (lists, stale after 5 minutes without an update), and
 * `account`, which stands alone when there is nothing to show from GitHub: no token yet (what
 * to set), or a problem (offline, token refused, rate limited) above the last lists, which go
 * stale. Calls are conditional (see api.ts); a rate limit pauses the runs until GitHub's reset.
 */
import {
  age,
  backoff,
  clip,
  connectionBlip,
  defineExtension,
  joinLine,
  list,
  stat,
  text,
  type Ctx,
  type ListItem,
} from "@svc/api";
import { GitHub, GitHubError } from "./api.js";
import {
  readChecks,
  readHeadSha,
  readNotifications,
  readSearch,
  type Checks,
  type PullRequest,
  type Thread,
} from "./shape.js";

const TITLE = "GitHub";
/** Lists go stale after two and a half runs without an update (offline, asleep, paused). */
const STALE_AFTER = 300;
/** Your own pull requests whose checks are asked for (two calls each). */
const CHECKED = 5;
const FAILURES = "failures";
/** The manifest's interval, in seconds: a longer wait GitHub asks for replaces it. */
const INTERVAL = 120;
const NOTIFICATIONS = "/notifications?per_page=20";
const LISTS = ["reviews", "mine", "inbox"] as const;

const search = (query: string) => `/search/issues?q=${encodeURIComponent(query)}&sort=updated&per_page=20`;
const REVIEWS = search("is:open is:pr review-requested:@me archived:false");
const MINE = search("is:open is:pr author:@me archived:false");

function tokenOf(ctx: Ctx): string | undefined {
  const token = ctx.preferences.token;
  return typeof token === "string" && token.trim() !== "" ? token.trim() : undefined;
}

/** How a check summary is drawn on its row. */
const CHECK_ICONS = { failure: "xmark.circle", running: "clock", success: "checkmark.circle" } as const;

/** A pull request's row; `extra` is its state and figure (waiting for review, or its checks). */
function pullItem(pull: PullRequest, now: number, extra: Pick<ListItem, "state" | "value" | "icon"> = {}): ListItem {
  return {
    id: `pr-${pull.repo}#${pull.number}`.slice(0, 64),
    title: clip(pull.title, 80),
    subtitle: joinLine([
      `${pull.repo}#${pull.number}`,
      pull.author,
      pull.draft ? "draft" : undefined,
      pull.updatedAt ? age(pull.updatedAt, now) : undefined,
    ]),
    url: pull.htmlUrl,
    ...extra,
  };
}

function checksOf(checks: Checks | undefined): Pick<ListItem, "state" | "value" | "icon"> {
  if (!checks) return {};
  return {
    value: text(checks.text),
    ...(checks.state ? { state: checks.state, icon: CHECK_ICONS[checks.state] } : {}),
  };
}

/**
 * The checks of one of your pull requests. A repository whose checks you may not read (403,
 * 404) shows none; being offline or rate limited stops the run as any call does.
 */
async function checksFor(github: GitHub, pull: PullRequest): Promise<Checks | undefined> {
  try {
    const sha = await github.get(pull.apiUrl, readHeadSha);
    return sha ? await github.get(`/repos/${pull.repo}/commits/${sha}/check-runs?per_page=100`, readChecks) : undefined;
  } catch (error) {
    if (error instanceof GitHubError && ["forbidden", "not-found"].includes(error.problem.kind)) return undefined;
    throw error;
  }
}

function threadItem(thread: Thread, now: number): ListItem {
  return {
    id: `t-${thread.id}`,
    title: clip(thread.title, 80),
    subtitle: joinLine([thread.repo, thread.reason, thread.updatedAt ? age(thread.updatedAt, now) : undefined]),
    url: thread.htmlUrl,
    actions: [
      { id: "open", title: "Open", icon: "arrow.up.right.square", url: thread.htmlUrl },
      { id: "read", title: "Mark read", icon: "checkmark", dismisses: true },
    ],
  };
}

/** What a list blip is called, and what it says when it has no rows. */
interface Heading {
  title: string;
  icon: string;
  state?: "failure";
  none: { value: string; icon?: string; state?: "success" };
}

/** The rows as a list, or a stat saying there are none: never an empty or made-up list. */
function listOrNone(key: string, heading: Heading, items: ListItem[], total: number) {
  const { none, ...head } = heading;
  if (items.length === 0)
    return stat(key, {
      title: head.title,
      icon: none.icon ?? head.icon,
      ...(none.state ? { state: none.state } : {}),
      value: none.value,
      staleAfter: STALE_AFTER,
    });
  return list(key, { ...head, total, items, staleAfter: STALE_AFTER });
}

function inboxBlip(threads: Thread[], now: number) {
  const heading = {
    title: "Notifications",
    icon: "bell.badge",
    none: { value: "All read", icon: "bell", state: "success" as const },
  };
  return listOrNone(
    "inbox",
    heading,
    threads.map((thread) => threadItem(thread, now)),
    threads.length,
  );
}

async function show(ctx: Ctx, github: GitHub): Promise<void> {
  const now = Date.now();
  const reviews = await github.get(REVIEWS, readSearch);
  const mine = await github.get(MINE, readSearch);
  const checks = new Map<PullRequest, Checks>();
  for (const pull of mine.pulls.slice(0, CHECKED)) {
    const found = await checksFor(github, pull);
    if (found) checks.set(pull, found);
  }
  const threads = await github.get(NOTIFICATIONS, readNotifications);

  const reviewing = {
    title: "Review requests",
    icon: "eye",
    none: { value: "None waiting", state: "success" as const },
  };
  await ctx.emit(
    listOrNone(
      "reviews",
      reviewing,
      reviews.pulls.map((pull) => pullItem(pull, now, { state: "waiting" })),
      reviews.total,
    ),
  );
  const failing = [...checks.values()].some((c) => c.state === "failure");
  const authored: Heading = {
    title: "My pull requests",
    icon: "arrow.triangle.pull",
    ...(failing ? { state: "failure" as const } : {}),
    none: { value: "None open" },
  };
  await ctx.emit(
    listOrNone(
      "mine",
      authored,
      mine.pulls.map((pull) => pullItem(pull, now, checksOf(checks.get(pull)))),
      mine.total,
    ),
  );
  await ctx.emit(inboxBlip(threads, now));
}

export default defineExtension({
  async update(ctx) {
    const token = tokenOf(ctx);
    if (!token) {
      // Nothing from GitHub without a token (nor what an earlier token fetched), and nothing
      // made up in its place.
      for (const key of LISTS) await ctx.remove(key);
      await GitHub.forget(ctx);
      await ctx.emit(
        stat("account", {
          title: TITLE,
          icon: "person.badge.key",
          state: "warning",
          value: text("No token"),
          label: 'Set "Personal access token" in Settings (scopes: repo, notifications)',
        }),
      );
      return {};
    }
    const github = await GitHub.open(ctx, token);
    const failures = (await ctx.storage.get<number>(FAILURES)) ?? 0;
    try {
      await show(ctx, github);
    } catch (error) {
      if (!(error instanceof GitHubError)) throw error;
      await github.save(false);
      await ctx.storage.set(FAILURES, failures + 1);
      const { problem } = error;
      // A refused token's lists belong to a sign-in that is gone; other problems leave them to go stale.
      if (problem.kind === "signed-out") for (const key of LISTS) await ctx.remove(key);
      const shown = problem.kind === "signed-out" ? { ...problem, message: "Token refused" } : problem;
      await ctx.emit(connectionBlip("account", shown, { title: TITLE }));
      return { nextRunAfter: Math.max(problem.retryAfter ?? backoff(failures), github.pause ?? 0) };
    }
    await github.save(true);
    await ctx.storage.delete(FAILURES);
    await ctx.remove("account");
    // The last call left none: wait for GitHub's reset rather than be refused.
    const wait = Math.max(github.pause ?? 0, github.pollInterval ?? 0);
    return wait > INTERVAL ? { nextRunAfter: wait } : {};
  },

  async onAction(ctx, action) {
    const token = tokenOf(ctx);
    if (action.actionId !== "read" || !action.itemId?.startsWith("t-") || !token) return;
    const id = action.itemId.slice(2);
    const github = await GitHub.open(ctx, token);
    try {
      await github.markRead(id);
    } catch (error) {
      if (error instanceof GitHubError) throw new Error(`Could not mark it read: ${error.problem.message}`);
      throw error;
    }
    const left = github.edit<Thread[]>(NOTIFICATIONS, (threads) => threads.filter((t) => t.id !== id));
    await github.save(false);
    if (left) await ctx.emit(inboxBlip(left, Date.now()));
  },
});
