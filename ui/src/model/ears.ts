/**
 * The collapsed notch's two "ears": which live blip sits there, and what each ear says.
 *
 * The rule for "the blip that matters most" (one place, tested in ears.test.ts):
 * 1. Only live blips (not ended).
 * 2. Something happening now beats a figure at rest: a countdown not yet at its end, a session, a
 *    progress not finished (rank 0); then a blip in trouble, state `failure` or `warning` (rank 1);
 *    then everything else (rank 2).
 * 3. Within a rank, the most recently changed wins (`changed`: a counter the store bumps on each
 *    update, so the order never depends on the wall clock); ties keep the panel's order.
 */
type Data = Record<string, unknown>;

export interface EarsBlip {
  id: string;
  ended: boolean;
  layout?: unknown;
  state?: unknown;
  data?: unknown;
}

const list = (value: unknown): Data[] => (Array.isArray(value) ? (value as Data[]) : []);
const FINISHED = new Set(["success", "failure", "cancelled"]);

/** The meter a meter blip is about: the fullest (the one its warning state would be about). */
export function fullestMeter(data: unknown): (Data & { fraction: number }) | undefined {
  const meters = list((data as Data | undefined)?.meters).filter(
    (m): m is Data & { fraction: number } => typeof m.fraction === "number",
  );
  return meters.length === 0 ? undefined : meters.reduce((a, b) => (b.fraction > a.fraction ? b : a));
}

/** A progress whose outcome is known: a final state, or the bar full. */
export function progressFinished(blip: EarsBlip): boolean {
  const fraction = (blip.data as Data | undefined)?.fraction;
  return blip.ended || FINISHED.has(String(blip.state)) || (typeof fraction === "number" && fraction >= 1);
}

function rank(blip: EarsBlip, now: number): number {
  const data = (blip.data ?? {}) as Data;
  if (blip.layout === "countdown" && Date.parse(String(data.endsAt)) > now) return 0;
  if (blip.layout === "session") return 0;
  if (blip.layout === "progress" && !progressFinished(blip)) return 0;
  if (blip.state === "failure" || blip.state === "warning") return 1;
  return 2;
}

/**
 * The blip for the ears, or undefined when nothing is live. `ordered` is the panel's order;
 * `changed(id)` the store's change counter for a blip (higher is more recent).
 *
 * @example
 * mattersMost([stat, countdown], (id) => changes[id], now) // the countdown, though the stat changed last
 */
export function mattersMost<T extends EarsBlip>(
  ordered: readonly T[],
  changed: (id: string) => number,
  now: number,
): T | undefined {
  let best: T | undefined;
  for (const blip of ordered) {
    if (blip.ended) continue;
    if (!best) {
      best = blip;
      continue;
    }
    const byRank = rank(blip, now) - rank(best, now);
    if (byRank < 0 || (byRank === 0 && changed(blip.id) > changed(best.id))) best = blip;
  }
  return best;
}

/**
 * What the ears show, from one blip's own fields only: a meter's figure always comes with that
 * same meter's label (the fullest one, the one a warning is about), never with another's state.
 * - `figure`: the left ear's text, or a clock (`{ticks: "to" | "from", at}`) that ticks by itself.
 * - `side`: the right ear's text: a state word, a label, an end time.
 * - `bar`: a thin bar under the ears (0–1), for a progress, a countdown with a start, a meter.
 * - `outcome`: a finished progress's final state (its percent is no longer news).
 */
export interface EarsParts {
  figure?: string | { ticks: "to" | "from"; at: number };
  side?: string;
  sideKind: "state" | "label" | "time";
  bar?: number;
  outcome?: string;
}

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

export function earsParts(
  blip: EarsBlip,
  now: number,
  format: { value(value: unknown): string; time(ms: number): string },
): EarsParts {
  const data = (blip.data ?? {}) as Data;
  const state = typeof blip.state === "string" ? blip.state : undefined;
  const stateSide = { ...(state === undefined ? {} : { side: state }), sideKind: "state" as const };
  switch (blip.layout) {
    case "countdown": {
      const end = Date.parse(String(data.endsAt));
      const start = Date.parse(String(data.startedAt));
      const bar =
        Number.isNaN(start) || end <= start ? undefined : Math.min(1, Math.max(0, (now - start) / (end - start)));
      return {
        figure: { ticks: "to", at: end },
        ...(Number.isNaN(end) ? { sideKind: "time" as const } : { side: format.time(end), sideKind: "time" as const }),
        ...(bar === undefined ? {} : { bar }),
      };
    }
    case "session":
      return { figure: { ticks: "from", at: Date.parse(String(data.startedAt)) }, ...stateSide };
    case "progress": {
      const fraction = typeof data.fraction === "number" ? Math.min(1, Math.max(0, data.fraction)) : 0;
      if (progressFinished(blip)) {
        const outcome = state && FINISHED.has(state) ? state : "success";
        return { outcome, side: outcome, sideKind: "state" };
      }
      return { figure: percent(fraction), bar: fraction, ...stateSide };
    }
    case "meter": {
      const fullest = fullestMeter(data);
      if (!fullest) return stateSide;
      const fraction = fullest.fraction;
      return { figure: percent(fraction), side: String(fullest.label ?? ""), sideKind: "label", bar: fraction };
    }
    case "stat":
      return {
        figure: format.value(data.value),
        ...(data.label === undefined ? stateSide : { side: String(data.label), sideKind: "label" as const }),
      };
    case "score": {
      const home = (data.home ?? {}) as Data;
      const away = (data.away ?? {}) as Data;
      return {
        figure: `${String(home.score ?? "")}–${String(away.score ?? "")}`,
        ...(data.period === undefined ? stateSide : { side: String(data.period), sideKind: "label" as const }),
      };
    }
    case "list":
      return { figure: String(typeof data.total === "number" ? data.total : list(data.items).length), ...stateSide };
    default:
      return stateSide;
  }
}
