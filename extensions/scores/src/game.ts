/** A game as both leagues are read into (src/nhl.ts, src/mlb.ts): what the blip needs. */
export interface Side {
  /** Short: the league's code, e.g. TOR. */
  code: string;
  /** Longer: e.g. Toronto, New York Yankees. */
  name: string;
  score?: number;
}

export interface Game {
  id: string;
  /** Epoch ms of the scheduled start. */
  start: number;
  phase: "upcoming" | "live" | "final";
  home: Side;
  away: Side;
  /** Where a live game is: "P2", "OT", "Top 7th". */
  period?: string;
}

/** How long a final score stays before the countdown to the next game takes its place. */
export const FINAL_SHOWN_MS = 3 * 3_600_000;

/**
 * The game to show at `now`: one under way; else one that ended within FINAL_SHOWN_MS of its
 * expected end; else the next to start; else none. `games` in any order.
 */
export function gameToShow(games: readonly Game[], now: number): Game | undefined {
  const byStart = [...games].sort((a, b) => a.start - b.start);
  const live = byStart.find((g) => g.phase === "live");
  if (live) return live;
  // A game's end is not in the schedule: take its start plus a long game (4 h) as the latest.
  const recent = byStart.filter(
    (g) => g.phase === "final" && g.start <= now && now - g.start < 4 * 3_600_000 + FINAL_SHOWN_MS,
  );
  if (recent.length > 0) return recent.at(-1);
  return byStart.find((g) => g.phase === "upcoming" && g.start + 4 * 3_600_000 > now);
}
