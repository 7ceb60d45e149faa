/**
 * Reading `playerctl` (MPRIS): one `metadata` call with a format string (playerctl(1), "Format
 * Strings") gives the status, the player, the position and length in microseconds, and the
 * track's artist, album and title, one field per tab. The title comes last, so a tab inside it
 * cannot shift the other fields.
 */

/** The fields, in order; each a playerctl variable. */
const FIELDS = ["status", "playerName", "position", "mpris:length", "artist", "album", "title"] as const;

/** The `--format` argument: fixed, so what runs is always the same command. */
export const METADATA_FORMAT = FIELDS.map((field) => `{{${field}}}`).join("\t");

/** The commands the blip's buttons send, by action id (playerctl(1), "Commands"). */
export const CONTROLS = {
  previous: { title: "Previous", icon: "backward.end" },
  "play-pause": { title: "Play/Pause", icon: "play" },
  next: { title: "Next", icon: "forward.end" },
} as const;

export type Control = keyof typeof CONTROLS;

export function isControl(id: string): id is Control {
  return Object.hasOwn(CONTROLS, id);
}

export interface Track {
  status: "Playing" | "Paused" | "Stopped";
  player: string;
  title: string;
  artist?: string;
  album?: string;
  /** Seconds into the track, when the player says. */
  position?: number;
  /** The track's length in seconds, when the player says. */
  length?: number;
}

const STATUSES = new Set(["Playing", "Paused", "Stopped"]);

/** Microseconds as seconds; undefined for an empty or odd field. */
function seconds(field: string | undefined): number | undefined {
  if (!field || !/^\d+$/.test(field.trim())) return undefined;
  return Number(field.trim()) / 1_000_000;
}

/**
 * @example
 * parseMetadata("Playing\tspotify\t61000000\t200000000\tDaft Punk\tDiscovery\tOne More Time\n");
 * // { status: "Playing", player: "spotify", title: "One More Time", artist: "Daft Punk", album: "Discovery", position: 61, length: 200 }
 */
export function parseMetadata(stdout: string): Track | undefined {
  const fields = stdout.replace(/\n$/, "").split("\t");
  if (fields.length < FIELDS.length) return undefined;
  const [status, player, position, length, artist, album, ...title] = fields;
  if (!STATUSES.has(status!)) return undefined;
  const name = title.join("\t").trim();
  return {
    status: status as Track["status"],
    player: player!.trim(),
    title: name,
    ...(artist?.trim() ? { artist: artist.trim() } : {}),
    ...(album?.trim() ? { album: album.trim() } : {}),
    ...(seconds(position) === undefined ? {} : { position: seconds(position) }),
    ...(seconds(length) ? { length: seconds(length) } : {}),
  };
}

/** A player's bus name as a person reads it: "spotify" → "Spotify", "chromium.instance123" → "Chromium". */
export function playerLabel(player: string): string {
  const base = player.split(".")[0] ?? player;
  return base.length === 0 ? "A player" : base[0]!.toUpperCase() + base.slice(1);
}

/** "1:01 of 3:20". */
export function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
