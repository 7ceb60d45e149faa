/**
 * The NHL's web API (api-web.nhle.com, what nhl.com uses; undocumented by the league, described
 * in the community's reference, github.com/Zmalski/NHL-API-Reference): a club's season schedule
 * as of now, `GET /v1/club-schedule-season/{team}/now`, whose `games[]` carry `id`,
 * `startTimeUTC`, `gameState` (FUT, PRE, LIVE, CRIT, FINAL, OFF), `awayTeam`/`homeTeam`
 * (`abbrev`, `placeName.default`, `score`) and `periodDescriptor` (`number`, `periodType`: REG, OT, SO).
 */
import type { Game, Side } from "./game.js";

interface NhlTeam {
  abbrev?: string;
  placeName?: { default?: string };
  score?: number;
}

interface NhlGame {
  id?: number;
  startTimeUTC?: string;
  gameState?: string;
  awayTeam?: NhlTeam;
  homeTeam?: NhlTeam;
  periodDescriptor?: { number?: number; periodType?: string };
}

export const nhlUrl = (team: string) => `https://api-web.nhle.com/v1/club-schedule-season/${team}/now`;

const PHASES: Record<string, Game["phase"]> = {
  FUT: "upcoming",
  PRE: "upcoming",
  LIVE: "live",
  CRIT: "live",
  FINAL: "final",
  OFF: "final",
};

function side(team: NhlTeam | undefined): Side {
  const code = team?.abbrev ?? "?";
  return {
    code,
    name: team?.placeName?.default ?? code,
    ...(typeof team?.score === "number" ? { score: team.score } : {}),
  };
}

function period(p: NhlGame["periodDescriptor"]): string | undefined {
  if (!p?.periodType) return undefined;
  return p.periodType === "REG" ? `P${p.number}` : p.periodType; // OT, SO
}

export function nhlGames(body: unknown): Game[] {
  const games = (body as { games?: NhlGame[] }).games ?? [];
  return games.flatMap((g) => {
    const start = Date.parse(g.startTimeUTC ?? "");
    const phase = PHASES[g.gameState ?? ""];
    if (!Number.isFinite(start) || !phase) return [];
    return [
      {
        id: String(g.id),
        start,
        phase,
        home: side(g.homeTeam),
        away: side(g.awayTeam),
        ...(phase === "live" ? { period: period(g.periodDescriptor) } : {}),
      },
    ];
  });
}
