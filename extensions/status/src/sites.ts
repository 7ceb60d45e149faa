/**
 * One of the person's own URLs, fetched with GET: its answer's status and how long the answer
 * took. A redirect is an answer (not followed: it may lead off the granted origin). No answer at
 * all is "down" here, unless nothing at all answered (then this computer is offline).
 */
import { number, type ListItem, type Problem } from "@svc/api";
import type { ItemState } from "./worst.js";

export type SiteCheck = { ok: true; status: number; ms: number } | { ok: false; problem: Problem };

/** The address as a row title: host and path, without the scheme. */
export function siteTitle(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}${parsed.search}`;
}

/** What a status means for an address of one's own: 2xx and 3xx are up. */
export function siteState(check: SiteCheck, slowMs: number): ItemState {
  if (!check.ok) return "failure";
  if (check.status >= 400) return "failure";
  return check.ms > slowMs ? "warning" : "success";
}

/** @example siteItem("site1", "https://example.com/health", { ok: true, status: 200, ms: 84 }, 1500) */
export function siteItem(id: string, url: string, check: SiteCheck, slowMs: number): ListItem {
  const state = siteState(check, slowMs);
  if (!check.ok) {
    return {
      id,
      title: siteTitle(url),
      subtitle: check.problem.message === "No connection" ? "No answer" : check.problem.message,
      state,
      url,
    };
  }
  return {
    id,
    title: siteTitle(url),
    subtitle: `${check.status}${state === "warning" ? " · slow" : ""}`,
    state,
    value: number(Math.round(check.ms), "ms"),
    url,
  };
}
