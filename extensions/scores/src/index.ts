/**
 * Live Scores: one team followed in one league. While its game is on, a `score` blip (asked
 * again every 30 s); for three hours after, the final; otherwise a `countdown` to the next game
 * (asked again when it is due to start, or every six hours). NHL (src/nhl.ts) and MLB
 * (src/mlb.ts) are read into one shape (src/game.ts).
 */
import {
  connectionBlip,
  countdown,
  defineExtension,
  probe,
  recovered,
  retryLater,
  score,
  stat,
  text,
  type Ctx,
} from "@svc/api";
import { FINAL_SHOWN_MS, gameToShow, type Game } from "./game.js";
import { MLB_TEAMS, mlbGames, mlbUrl } from "./mlb.js";
import { nhlGames, nhlUrl } from "./nhl.js";

const KEY = "game";
const LIVE_EVERY_S = 30;
const IDLE_EVERY_S = 6 * 3600;

interface League {
  name: string;
  /** The followed team's code, as the league's answers spell it. */
  team: string;
  icon: string;
  url: string;
  games: (body: unknown) => Game[];
}

/** The league and request for the person's choice, or what to fix. */
function leagueOf(ctx: Ctx): League | string {
  const team = typeof ctx.preferences.team === "string" ? ctx.preferences.team.trim().toUpperCase() : "";
  if (!team) return "Set a team code in Settings (TOR, NYY …)";
  if (ctx.preferences.league === "mlb") {
    const id = MLB_TEAMS[team] ?? (/^\d{3}$/.test(team) ? Number(team) : undefined);
    if (id === undefined) return `"${team}" is not an MLB team code: try NYY, LAD or BOS`;
    const code = Object.keys(MLB_TEAMS).find((c) => MLB_TEAMS[c] === id) ?? team;
    return { name: "MLB", team: code, icon: "baseball", url: mlbUrl(id, Date.now()), games: mlbGames };
  }
  if (!/^[A-Z]{3}$/.test(team)) return `"${team}" is not an NHL team code: try TOR, MTL or BOS`;
  return { name: "NHL", team, icon: "hockey.puck", url: nhlUrl(team), games: nhlGames };
}

const when = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

function scoreBlip(league: League, game: Game) {
  const mine = game.away.code === league.team ? game.away : game.home;
  const theirs = mine === game.home ? game.away : game.home;
  const won = game.phase === "final" && (mine.score ?? 0) > (theirs.score ?? 0);
  return score(KEY, {
    title: `${game.away.name} at ${game.home.name}`,
    subtitle: league.name,
    icon: league.icon,
    state: game.phase === "live" ? "running" : won ? "success" : "idle",
    home: { name: game.home.code, score: game.home.score ?? 0 },
    away: { name: game.away.code, score: game.away.score ?? 0 },
    period: game.phase === "live" ? (game.period ?? "Live") : "Final",
    // A live score two polls old is not live any more.
    staleAfter: game.phase === "live" ? 2 * LIVE_EVERY_S + 30 : undefined,
  });
}

export default defineExtension({
  async update(ctx) {
    const league = leagueOf(ctx);
    if (typeof league === "string") {
      const empty = !ctx.preferences.team;
      await ctx.emit(
        stat(KEY, {
          title: "Live Scores",
          icon: "sportscourt",
          state: empty ? "idle" : "warning",
          value: text(empty ? "No team chosen" : "Unknown team"),
          label: league,
        }),
      );
      return;
    }
    const res = await probe(fetch(league.url, { headers: { Accept: "application/json" } }));
    if (!res.ok) {
      const plan = await retryLater(ctx.storage, res.problem, { base: 30 });
      await ctx.emit(connectionBlip(KEY, plan.problem, { title: "Live Scores" }));
      return { nextRunAfter: plan.nextRunAfter };
    }
    await recovered(ctx.storage);
    const now = Date.now();
    const game = gameToShow(league.games(await res.value.json()), now);
    if (!game) {
      await ctx.emit(
        stat(KEY, {
          title: "Live Scores",
          subtitle: league.name,
          icon: league.icon,
          state: "idle",
          value: text("No games scheduled"),
          label: "None in the schedule ahead",
        }),
      );
      return { nextRunAfter: IDLE_EVERY_S };
    }
    if (game.phase === "upcoming") {
      await ctx.emit(
        countdown(KEY, {
          title: `${game.away.code} at ${game.home.code}`,
          subtitle: `${league.name} · ${when.format(game.start)}`,
          icon: league.icon,
          state: "waiting",
          endsAt: game.start,
        }),
      );
      // Ask again at the start (then it is live), and now and then before (times change).
      return { nextRunAfter: Math.max(60, Math.min(IDLE_EVERY_S, Math.ceil((game.start - now) / 1000))) };
    }
    await ctx.emit(scoreBlip(league, game));
    if (game.phase === "live") return { nextRunAfter: LIVE_EVERY_S };
    // The final stays until the countdown to the next game takes over.
    return { nextRunAfter: Math.max(60, Math.ceil((game.start + 4 * 3_600_000 + FINAL_SHOWN_MS - now) / 1000)) };
  },
});
