/**
 * Atlassian Statuspage's public `GET /api/v2/summary.json` (documented on every such page's
 * `/api`): the page, the overall status `{indicator, description}`, the components, the
 * unresolved incidents and the scheduled maintenances. Only what the notch shows is read; an
 * answer without that shape is "not a Statuspage page".
 */
import type { ListItem } from "@svc/api";
import type { ItemState } from "./worst.js";

export interface Summary {
  name: string;
  url: string;
  indicator: string;
  description: string;
  incidents: { name: string; impact: string; shortlink?: string }[];
  maintenances: { name: string; status: string }[];
}

/** The summary.json address of a page the person typed (its origin; a path typed is left aside). */
export function summaryUrl(page: string): string {
  return new URL("/api/v2/summary.json", page).href;
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The parts of a summary.json the notch shows, or undefined when it is not one. */
export function readSummary(body: unknown): Summary | undefined {
  const root = body as Record<string, any> | null;
  const name = str(root?.page?.name);
  const indicator = str(root?.status?.indicator);
  if (!name || !indicator) return undefined;
  const incidents = Array.isArray(root?.incidents) ? root.incidents : [];
  const maintenances = Array.isArray(root?.scheduled_maintenances) ? root.scheduled_maintenances : [];
  return {
    name,
    url: str(root?.page?.url) ?? "",
    indicator,
    description: str(root?.status?.description) ?? indicator,
    incidents: incidents
      .filter((i: any) => str(i?.name))
      .map((i: any) => ({ name: i.name, impact: str(i.impact) ?? "none", shortlink: str(i.shortlink) })),
    maintenances: maintenances
      .filter((m: any) => str(m?.name) && str(m?.status) === "in_progress")
      .map((m: any) => ({ name: m.name, status: m.status })),
  };
}

/** Statuspage's indicator (`none`, `minor`, `major`, `critical`, `maintenance`) as a blip state. */
export function indicatorState(indicator: string): ItemState {
  switch (indicator) {
    case "none":
      return "success";
    case "minor":
    case "maintenance":
      return "warning";
    default:
      return "failure";
  }
}

/** One page as a list row: its status line, the first incident (or maintenance) under it. */
export function pageItem(id: string, summary: Summary): ListItem {
  const [incident] = summary.incidents;
  const [maintenance] = summary.maintenances;
  const count = summary.incidents.length;
  return {
    id,
    title: summary.name,
    subtitle: incident?.name ?? (maintenance ? `Maintenance: ${maintenance.name}` : undefined),
    state: indicatorState(summary.indicator),
    value: count > 0 ? `${count} incident${count === 1 ? "" : "s"}` : summary.description,
    ...(/^https?:\/\//.test(incident?.shortlink ?? "")
      ? { url: incident!.shortlink }
      : /^https?:\/\//.test(summary.url)
        ? { url: summary.url }
        : {}),
  };
}
