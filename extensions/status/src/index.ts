/**
 * Status & Uptime: the Statuspage pages and own URLs the person granted (`url` options, one
 * origin each), read every 2 minutes. Each source is one row of a list blip (`services`,
 * `sites`); a source that fails shows its problem on its own row. When nothing answered at all,
 * this computer is offline: the blips say so instead of calling every service down. A rate
 * limit or a run where everything failed waits longer (`waitForReset`, then `backoff`).
 */
import {
  backoff,
  connectionBlip,
  defineExtension,
  list,
  probe,
  stat,
  type Ctx,
  type ListItem,
  type Problem,
} from "@svc/api";
import { siteItem, type SiteCheck } from "./sites.js";
import { pageItem, readSummary, summaryUrl } from "./statuspage.js";
import { worst, type ItemState } from "./worst.js";

const PAGES = ["page1", "page2", "page3"] as const;
const SITES = ["site1", "site2", "site3"] as const;
/** Fresh for two runs (the interval is 2 minutes); after that, drawn stale. */
const STALE_AFTER = 5 * 60;
const FAILURES_KEY = "failures";

interface Outcome {
  item: ListItem;
  /** what went wrong, when something did */
  problem?: Problem;
}

function chosen(ctx: Ctx, names: readonly string[]): { name: string; url: string }[] {
  return names.flatMap((name) => {
    const url = ctx.preferences[name];
    return typeof url === "string" && url !== "" ? [{ name, url }] : [];
  });
}

const problemRow = (id: string, title: string, problem: Problem, url?: string): ListItem => ({
  id,
  title,
  subtitle: problem.kind === "not-found" ? "Not found: is this a Statuspage page?" : problem.message,
  state:
    problem.kind === "offline" || problem.kind === "rate-limited" || problem.kind === "unavailable"
      ? "warning"
      : "failure",
  ...(url ? { url } : {}),
});

async function readPage(name: string, page: string): Promise<Outcome> {
  const host = new URL(page).host;
  const res = await probe(fetch(summaryUrl(page), { headers: { accept: "application/json" } }));
  if (!res.ok) {
    return { item: problemRow(name, host, res.problem, page), problem: res.problem };
  }
  const body = await probe(res.value.json());
  const summary = body.ok ? readSummary(body.value) : undefined;
  if (!summary) {
    return {
      item: {
        id: name,
        title: host,
        subtitle: "Not a Statuspage summary: check the address",
        state: "failure",
        url: page,
      },
    };
  }
  return { item: pageItem(name, summary) };
}

async function checkSite(name: string, url: string, slowMs: number): Promise<Outcome> {
  const started = performance.now();
  const res = await probe(fetch(url, { redirect: "manual" }).then((r) => r.status));
  const check: SiteCheck = res.ok ? { ok: true, status: res.value, ms: performance.now() - started } : res;
  return { item: siteItem(name, url, check, slowMs), ...(res.ok ? {} : { problem: res.problem }) };
}

function listBlip(key: string, title: string, icon: string, outcomes: Outcome[]) {
  const states = outcomes.map((o) => o.item.state as ItemState);
  const down = states.filter((s) => s !== "success").length;
  return list(key, {
    title,
    icon,
    state: worst(states),
    subtitle: down === 0 ? "All up" : `${down} of ${outcomes.length} not well`,
    items: outcomes.map((o) => o.item),
    staleAfter: STALE_AFTER,
  });
}

export default defineExtension({
  async update(ctx) {
    const pages = chosen(ctx, PAGES);
    const sites = chosen(ctx, SITES);
    if (pages.length === 0 && sites.length === 0) {
      await ctx.remove("services");
      await ctx.remove("sites");
      await ctx.emit(
        stat("setup", {
          title: "Status & Uptime",
          icon: "waveform.path.ecg",
          state: "idle",
          value: "Nothing to watch yet",
          label: "Add a status page or one of your URLs in Settings",
        }),
      );
      return;
    }
    await ctx.remove("setup");
    const slowMs = Number(ctx.preferences.slowMs) > 0 ? Number(ctx.preferences.slowMs) : 1500;
    const [pageOutcomes, siteOutcomes] = await Promise.all([
      Promise.all(pages.map((p) => readPage(p.name, p.url))),
      Promise.all(sites.map((s) => checkSite(s.name, s.url, slowMs))),
    ]);
    const all = [...pageOutcomes, ...siteOutcomes];
    const failures = (await ctx.storage.get<number>(FAILURES_KEY)) ?? 0;

    if (all.every((o) => o.problem?.kind === "offline")) {
      // Nothing answered: this computer is offline, not every service down at once.
      const problem: Problem = { kind: "offline", message: "No connection" };
      if (pages.length) await ctx.emit(connectionBlip("services", problem, { title: "Services" }));
      if (sites.length) await ctx.emit(connectionBlip("sites", problem, { title: "My URLs" }));
      await ctx.storage.set(FAILURES_KEY, failures + 1);
      return { nextRunAfter: backoff(failures) };
    }

    if (pages.length) await ctx.emit(listBlip("services", "Services", "server.rack", pageOutcomes));
    else await ctx.remove("services");
    if (sites.length) await ctx.emit(listBlip("sites", "My URLs", "globe", siteOutcomes));
    else await ctx.remove("sites");

    // A service that asked us to wait is waited for (Retry-After, X-RateLimit-Reset: waitForReset
    // inside probe); a rate limit that names no wait backs off, longer each time in a row.
    const waits = all.flatMap((o) => (o.problem?.retryAfter === undefined ? [] : [o.problem.retryAfter]));
    const limited = all.some((o) => o.problem?.kind === "rate-limited" && o.problem.retryAfter === undefined);
    if (waits.length > 0 || limited) {
      await ctx.storage.set(FAILURES_KEY, failures + 1);
      return { nextRunAfter: Math.max(...waits, limited ? backoff(failures) : 0) };
    }
    await ctx.storage.delete(FAILURES_KEY);
    return undefined;
  },
});
