/**
 * Now Playing: the track in the MPRIS player playerctl picks (the most recently active one when
 * playerctld runs), as a progress blip with previous, play/pause and next. Reads again every
 * 5 s while something plays, else every 30 s. Without playerctl, or with no player, the blip
 * says so and what to do; nothing is made up.
 */
import { defineExtension, joinLine, progress, runProgram, stat, type Action, type Ctx } from "@svc/api";
import { clock, CONTROLS, isControl, METADATA_FORMAT, parseMetadata, playerLabel, type Track } from "./playerctl.js";

const KEY = "now-playing";
const TITLE = "Now Playing";
/** While a track plays, how soon to read it again (seconds). */
const PLAYING_EVERY = 5;

type Reading =
  { kind: "track"; track: Track } | { kind: "none" } | { kind: "missing" } | { kind: "failed"; why: string };

async function read(ctx: Ctx): Promise<Reading> {
  const run = await runProgram(ctx, "playerctl", ["metadata", "--format", METADATA_FORMAT], { timeoutMs: 5_000 });
  if (!run.ran) return run.kind === "missing" ? { kind: "missing" } : { kind: "failed", why: run.message };
  if (run.code !== 0) {
    // playerctl exits 1 with "No players found" when no MPRIS player runs.
    if (/No players? found/i.test(run.stderr)) return { kind: "none" };
    return { kind: "failed", why: run.stderr.trim().slice(0, 200) || `playerctl exited ${run.code}` };
  }
  const track = parseMetadata(run.stdout);
  if (!track || (track.status === "Stopped" && !track.title)) return { kind: "none" };
  return { kind: "track", track };
}

function controls(track: Track): Action[] {
  return (Object.keys(CONTROLS) as (keyof typeof CONTROLS)[]).map((id) => ({
    id,
    title: CONTROLS[id].title,
    icon: id === "play-pause" ? (track.status === "Playing" ? "pause" : "play") : CONTROLS[id].icon,
    ...(id === "play-pause" ? { role: "primary" as const } : {}),
  }));
}

async function show(ctx: Ctx): Promise<{ nextRunAfter?: number }> {
  const reading = await read(ctx);
  switch (reading.kind) {
    case "missing":
      await ctx.emit(
        stat(KEY, {
          title: TITLE,
          icon: "music.note",
          state: "warning",
          value: "playerctl is not installed",
          label: "Install playerctl (e.g. apt install playerctl) to see what's playing",
        }),
      );
      return {};
    case "failed":
      ctx.log.warn(`playerctl failed: ${reading.why}`);
      await ctx.emit(
        stat(KEY, {
          title: TITLE,
          icon: "exclamationmark.triangle",
          state: "failure",
          value: "Can't read the player",
          label: reading.why,
        }),
      );
      return {};
    case "none":
      await ctx.emit(
        stat(KEY, {
          title: TITLE,
          icon: "music.note",
          state: "idle",
          value: "Nothing playing",
          label: "Start a player with MPRIS: Spotify, VLC, Rhythmbox or a browser",
        }),
      );
      return {};
    case "track": {
      const { track } = reading;
      const playing = track.status === "Playing";
      const known = track.length !== undefined && track.position !== undefined;
      await ctx.emit(
        progress(KEY, {
          title: track.title || "Untitled",
          subtitle: joinLine([track.artist, track.album]) || undefined,
          icon: playing ? "music.note" : "pause",
          state: playing ? "running" : "idle",
          fraction: known ? track.position! / track.length! : 0,
          step: joinLine([
            playerLabel(track.player),
            playing ? null : track.status.toLowerCase(),
            known ? `${clock(track.position!)} of ${clock(track.length!)}` : null,
          ]),
          actions: controls(track),
          // A position drawn long after the last reading would mislead.
          staleAfter: playing ? 3 * PLAYING_EVERY : 120,
        }),
      );
      return playing ? { nextRunAfter: PLAYING_EVERY } : {};
    }
  }
}

export default defineExtension({
  update: show,
  async onAction(ctx, action) {
    if (!isControl(action.actionId)) return;
    const result = await ctx.exec("playerctl", [action.actionId], { timeoutMs: 5_000 });
    if (result.code !== 0) throw new Error(result.stderr.trim() || `playerctl ${action.actionId} failed`);
    await show(ctx);
  },
});
