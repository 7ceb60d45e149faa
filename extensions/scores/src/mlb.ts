/**
 * MLB's Stats API (statsapi.mlb.com): `GET /api/v1/schedule?sportId=1&teamId=&startDate=&endDate=&hydrate=linescore`,
 * `dates[].games[]` with `gamePk`, `gameDate`, `status` (`abstractGameState`: Preview, Live,
 * Final; `detailedState`: Scheduled, In Progress, Postponed …), `teams.away`/`teams.home`
 * (`score`, `team.id`, `team.name`) and, hydrated, `linescore` (`currentInningOrdinal`,
 * `inningState`: Top, Middle, Bottom, End).
 */
import type { Game, Side } from "./game.js";

/** The thirty clubs' Stats API ids by the codes fans write (a team may also be given by its id). */
export const MLB_TEAMS: Record<string, number> = {
  LAA: 108,
  ARI: 109,
  BAL: 110,
  BOS: 111,
  CHC: 112,
  CIN: 113,
  CLE: 114,
  COL: 115,
  DET: 116,
  HOU: 117,
  KC: 118,
  LAD: 119,
  WSH: 120,
  NYM: 121,
  ATH: 133,
  OAK: 133,
  PIT: 134,
  SD: 135,
  SEA: 136,
  SF: 137,
  STL: 138,
  TB: 139,
  TEX: 140,
  TOR: 141,
  MIN: 142,
  PHI: 143,
  ATL: 144,
  CWS: 145,
  MIA: 146,
  NYY: 147,
  MIL: 158,
};

const CODES = new Map(Object.entries(MLB_TEAMS).map(([code, id]) => [id, code]));

interface MlbSide {
  score?: number;
  team?: { id?: number; name?: string };
}

interface MlbGame {
  gamePk?: number;
  gameDate?: string;
  status?: { abstractGameState?: string; detailedState?: string };
  teams?: { away?: MlbSide; home?: MlbSide };
  linescore?: { currentInningOrdinal?: string; inningState?: string };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Yesterday to two weeks ahead (UTC days): a game under way late at night, and the next one. */
export function mlbUrl(teamId: number, now: number): string {
  return (
    `https://statsapi.mlb.com/api/v1/schedule?sportId=1&teamId=${teamId}` +
    `&startDate=${day(now - 86_400_000)}&endDate=${day(now + 14 * 86_400_000)}&hydrate=linescore`
  );
}

const PHASES: Record<string, Game["phase"]> = { Preview: "upcoming", Live: "live", Final: "final" };

function side(s: MlbSide | undefined): Side {
  const id = s?.team?.id;
  const name = s?.team?.name ?? "?";
  return {
    code: (id !== undefined ? CODES.get(id) : undefined) ?? name,
    name,
    ...(typeof s?.score === "number" ? { score: s.score } : {}),
  };
}

export function mlbGames(body: unknown): Game[] {
  const dates = (body as { dates?: { games?: MlbGame[] }[] }).dates ?? [];
  return dates.flatMap((d) =>
    (d.games ?? []).flatMap((g) => {
      const start = Date.parse(g.gameDate ?? "");
      const phase = PHASES[g.status?.abstractGameState ?? ""];
      // A postponed or cancelled game is not the next one to count down to.
      if (!Number.isFinite(start) || !phase || /postponed|cancelled/i.test(g.status?.detailedState ?? "")) return [];
      const inning = [g.linescore?.inningState, g.linescore?.currentInningOrdinal].filter(Boolean).join(" ");
      return [
        {
          id: String(g.gamePk),
          start,
          phase,
          home: side(g.teams?.home),
          away: side(g.teams?.away),
          ...(phase === "live" && inning ? { period: inning } : {}),
        },
      ];
    }),
  );
}
