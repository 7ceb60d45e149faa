/**
 * Live Scores with @svc/testkit: the NHL's and MLB's schedule answers replayed from recordings
 * written by hand from their documented shapes (each file's `source`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, type LoadOptions } from "@svc/testkit";
import { readFileSync } from "node:fs";
import { gameToShow, type Game } from "../src/game.js";
import { mlbGames } from "../src/mlb.js";

async function scores(t: { after(fn: () => Promise<void>): void }, options: LoadOptions) {
  const ext = await loadExtension(".", options);
  t.after(() => ext.dispose());
  return ext;
}

const TOR = { league: "nhl", team: "tor" };

test("NHL: the live score, then the final, then a countdown to the next game", async (t) => {
  const ext = await scores(t, {
    now: "2025-01-06T01:10:00Z",
    preferences: TOR,
    recording: "test/recordings/nhl-tor.json",
  });
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 30 });
  const live = ext.blip("game");
  assert.equal(live?.layout, "score");
  assert.equal(live?.title, "Toronto at Montréal");
  assert.equal(live?.icon, "hockey.puck");
  assert.equal(live?.state, "running");
  assert.deepEqual(live?.data, { home: { name: "MTL", score: 1 }, away: { name: "TOR", score: 2 }, period: "P2" });
  assert.equal(live?.staleAfter, "2025-01-06T01:11:30.000Z");

  await ext.clock.advance("30s"); // the second answer: over, 4–3 in overtime
  const final = ext.blip("game");
  assert.equal(final?.state, "success"); // Toronto won
  assert.deepEqual(final?.data, { home: { name: "MTL", score: 3 }, away: { name: "TOR", score: 4 }, period: "Final" });
  // The final stays 3 hours past the latest a game ends (start + 4 h): until 07:00.
  assert.equal(ext.nextRunAt, Date.parse("2025-01-06T07:00:00Z"));

  await ext.clock.advanceTo("2025-01-06T07:00:00Z");
  const next = ext.blip("game");
  assert.equal(next?.layout, "countdown");
  assert.equal(next?.title, "FLA at TOR");
  assert.equal(next?.subtitle, "NHL · Thu, Jan 9, 12:30 AM");
  assert.equal(next?.state, "waiting");
  assert.deepEqual(next?.data, { endsAt: "2025-01-09T00:30:00.000Z" });
  // Six hours on (the game is further): asked again then, in case the time changed.
  assert.equal(ext.nextRunAt, Date.parse("2025-01-06T13:00:00Z"));
});

test("MLB: the Yankees' game in the top of the 7th; a postponed game is not counted down to", async (t) => {
  const ext = await scores(t, {
    now: "2025-06-10T23:40:00Z",
    preferences: { league: "mlb", team: "NYY" },
    recording: "test/recordings/mlb-nyy.json",
  });
  await ext.run();
  const live = ext.blip("game");
  assert.equal(live?.title, "Boston Red Sox at New York Yankees");
  assert.equal(live?.icon, "baseball");
  assert.deepEqual(live?.data, { home: { name: "NYY", score: 4 }, away: { name: "BOS", score: 3 }, period: "Top 7th" });
});

test("MLB: a team given by its Stats API id; after the live game, the next is Friday's, not the postponed one", async (t) => {
  const ext = await scores(t, {
    now: "2025-06-10T23:40:00Z",
    preferences: { league: "mlb", team: "147" },
    recording: "test/recordings/mlb-nyy.json",
  });
  await ext.run();
  assert.equal(ext.blip("game")?.title, "Boston Red Sox at New York Yankees");
  const recorded = JSON.parse(readFileSync("test/recordings/mlb-nyy.json", "utf8")) as {
    exchanges: { response: { body: string } }[];
  };
  const games = mlbGames(JSON.parse(recorded.exchanges[0]!.response.body));
  assert.deepEqual(
    games.map((g) => g.id),
    ["777101", "777115", "777140"],
  );
  // The next morning that game is over: the next shown is Friday's in Detroit.
  const over = games.map((g) => (g.id === "777115" ? { ...g, phase: "final" as const } : g));
  assert.equal(gameToShow(over, Date.parse("2025-06-11T12:00:00Z"))?.id, "777140");
});

test("a rate limit waits the Retry-After, then the score comes", async (t) => {
  const ext = await scores(t, {
    now: "2025-01-06T01:10:00Z",
    preferences: TOR,
    recording: "test/recordings/nhl-throttled.json",
  });
  assert.deepEqual(await ext.run("launch"), { nextRunAfter: 120 });
  assert.deepEqual(ext.blip("game")?.data, {
    value: { type: "text", value: "Rate limited" },
    label: "Trying again in 2m",
  });
  await ext.clock.advance("2m");
  assert.equal(ext.blip("game")?.layout, "score");
});

test("offline: says No connection, and backs off from 30 s", async (t) => {
  const ext = await scores(t, {
    now: "2025-06-10T23:40:00Z",
    preferences: { league: "mlb", team: "NYY" },
    recording: "test/recordings/mlb-offline.json",
  });
  const { nextRunAfter } = await ext.run();
  assert.equal(ext.blip("game")?.icon, "wifi.slash");
  assert.equal((ext.blip("game")?.data as { value: { value: string } }).value.value, "No connection");
  assert.ok(nextRunAfter! >= 15 && nextRunAfter! <= 30, String(nextRunAfter));
});

test("no team chosen: says what to set, and fetches nothing", async (t) => {
  const ext = await scores(t, {});
  await ext.run();
  assert.deepEqual(ext.blip("game")?.data, {
    value: { type: "text", value: "No team chosen" },
    label: "Set a team code in Settings (TOR, NYY …)",
  });
});

test("a team the league does not have is named, with codes to try", async (t) => {
  const ext = await scores(t, { preferences: { league: "mlb", team: "Yanks" } });
  await ext.run();
  assert.equal(ext.blip("game")?.state, "warning");
  assert.equal(
    (ext.blip("game")?.data as { label: string }).label,
    '"YANKS" is not an MLB team code: try NYY, LAD or BOS',
  );
});

test("which game: live first, then a final still fresh, then the next to start", () => {
  const side = { code: "TOR", name: "Toronto" };
  const game = (id: string, start: string, phase: Game["phase"]): Game => ({
    id,
    start: Date.parse(start),
    phase,
    home: side,
    away: side,
  });
  const games = [game("a", "2025-01-04T00:00:00Z", "final"), game("b", "2025-01-09T00:00:00Z", "upcoming")];
  // 7 hours after a's start the final is still shown; one minute past that, the countdown.
  assert.equal(gameToShow(games, Date.parse("2025-01-04T06:59:00Z"))?.id, "a");
  assert.equal(gameToShow(games, Date.parse("2025-01-04T07:00:00Z"))?.id, "b");
  assert.equal(
    gameToShow([...games, game("c", "2025-01-05T00:00:00Z", "live")], Date.parse("2025-01-04T01:00:00Z"))?.id,
    "c",
  );
  assert.equal(gameToShow(games, Date.parse("2025-01-10T00:00:00Z")), undefined);
});
