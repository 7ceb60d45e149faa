/**
 * A small iCalendar (RFC 5545) reader: the VEVENTs of a calendar file, their times resolved to
 * instants. Written here because the sandbox has no Node modules and the well-kept ICS libraries
 * (ical.js, node-ical) either pull Node's or carry a time-zone database we do not need: the
 * sandbox's `Intl` knows every IANA zone.
 *
 * Times, as RFC 5545 §3.3.5 has them: `…Z` is UTC; `TZID=Europe/Berlin:…` is that zone's wall
 * clock; no zone is "floating", the person's own clock; `VALUE=DATE` is a whole day (all-day).
 * Recurrence (RRULE, EXDATE, RECURRENCE-ID) is src/recurrence.ts's.
 */

/** A wall-clock time, as written: no zone applied yet. */
export interface Wall {
  year: number;
  month: number; // 1–12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** A time as the file wrote it: a wall time and what it is relative to. */
export interface IcsTime {
  wall: Wall;
  /** `utc`, `floating` (the person's zone), or an IANA zone name. */
  zone: string;
  /** A whole day (VALUE=DATE). */
  allDay: boolean;
}

export interface IcsEvent {
  uid: string;
  summary: string;
  location: string;
  description: string;
  url: string;
  start: IcsTime;
  /** DTEND, or DTSTART + DURATION, or the RFC's default (a day for all-day, else zero). */
  end: IcsTime | { durationMs: number };
  rrule?: string;
  exdates: IcsTime[];
  recurrenceId?: IcsTime;
  cancelled: boolean;
  /** Other text properties a meeting link may hide in (X-GOOGLE-CONFERENCE, X-MICROSOFT-SKYPETEAMSMEETINGURL …). */
  extra: string[];
}

interface Line {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** Unfolds (a line break followed by a space or tab continues the line) and splits. */
function lines(text: string): string[] {
  return text.replace(/\r?\n[ \t]/g, "").split(/\r?\n/);
}

/** `NAME;P1=a;P2="b;c":value` → its parts; a line without a colon is not a property. */
function parseLine(raw: string): Line | undefined {
  let i = 0;
  let quoted = false;
  for (; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') quoted = !quoted;
    else if (c === ":" && !quoted) break;
  }
  if (i >= raw.length) return undefined;
  const [name = "", ...params] = raw.slice(0, i).match(/(?:[^;"]|"[^"]*")+/g) ?? [];
  const parsed: Record<string, string> = {};
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq > 0) parsed[param.slice(0, eq).toUpperCase()] = param.slice(eq + 1).replace(/^"|"$/g, "");
  }
  return { name: name.toUpperCase(), params: parsed, value: raw.slice(i + 1) };
}

/** TEXT values escape `\\`, `\;`, `\,` and `\n` (RFC 5545 §3.3.11). */
export function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

/** Zone names Outlook and Exchange write (Windows names) for the commonest zones, as IANA names. */
const WINDOWS_ZONES: Record<string, string> = {
  "W. Europe Standard Time": "Europe/Berlin",
  "Central Europe Standard Time": "Europe/Budapest",
  "Central European Standard Time": "Europe/Warsaw",
  "Romance Standard Time": "Europe/Paris",
  "GMT Standard Time": "Europe/London",
  "Greenwich Standard Time": "Atlantic/Reykjavik",
  "E. Europe Standard Time": "Europe/Chisinau",
  "FLE Standard Time": "Europe/Kiev",
  "Eastern Standard Time": "America/New_York",
  "Central Standard Time": "America/Chicago",
  "Mountain Standard Time": "America/Denver",
  "Pacific Standard Time": "America/Los_Angeles",
  "India Standard Time": "Asia/Kolkata",
  "China Standard Time": "Asia/Shanghai",
  "Tokyo Standard Time": "Asia/Tokyo",
  "AUS Eastern Standard Time": "Australia/Sydney",
  UTC: "UTC",
};

/**
 * The IANA zone a TZID names, or `floating` when we cannot tell: an IANA name as is, a Windows
 * name from the table, a prefixed one (`/mozilla.org/20050126_1/Europe/Berlin`) by its last
 * two parts.
 */
export function zoneOf(tzid: string): string {
  const name = WINDOWS_ZONES[tzid] ?? tzid;
  for (const candidate of [name, name.split("/").slice(-2).join("/")]) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: candidate });
      return candidate;
    } catch {
      // not a zone Intl knows: try the next spelling
    }
  }
  return "floating";
}

/** `20250610T093000Z`, `20250610T093000` or `20250610`, with its TZID and VALUE parameters. */
export function parseTime(value: string, params: Record<string, string>): IcsTime | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return undefined;
  const wall: Wall = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
  const allDay = m[4] === undefined;
  if (allDay) return { wall, zone: "floating", allDay };
  if (m[7]) return { wall, zone: "utc", allDay };
  return { wall, zone: params.TZID ? zoneOf(params.TZID) : "floating", allDay };
}

/** `PT1H30M`, `P1D`, `-PT15M`, `P2W` (RFC 5545 §3.3.6) in ms, or undefined. */
export function parseDuration(value: string): number | undefined {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(value.trim());
  if (!m || value.trim() === "P" || /T$/.test(value.trim())) return undefined;
  const [, sign, w, d, h, min, s] = m;
  const ms = ((+(w ?? 0) * 7 + +(d ?? 0)) * 86_400 + +(h ?? 0) * 3600 + +(min ?? 0) * 60 + +(s ?? 0)) * 1000;
  return sign === "-" ? -ms : ms;
}

/** Every VEVENT of the text with a start; the rest of the file (VTIMEZONE, VTODO …) is passed over. */
export function parseCalendar(text: string): IcsEvent[] {
  const events: IcsEvent[] = [];
  let current:
    (Partial<IcsEvent> & { exdates: IcsTime[]; extra: string[]; endTime?: IcsTime; durationMs?: number }) | undefined;
  let depth = 0; // components nested inside the VEVENT (VALARM): their properties are not the event's
  for (const raw of lines(text)) {
    const line = parseLine(raw);
    if (!line) continue;
    if (line.name === "BEGIN") {
      if (line.value.toUpperCase() === "VEVENT" && !current) current = { exdates: [], extra: [] };
      else if (current) depth++;
      continue;
    }
    if (line.name === "END") {
      if (current && depth > 0) depth--;
      else if (current && line.value.toUpperCase() === "VEVENT") {
        const event = finish(current);
        if (event) events.push(event);
        current = undefined;
      }
      continue;
    }
    if (!current || depth > 0) continue;
    switch (line.name) {
      case "UID":
        current.uid = line.value;
        break;
      case "SUMMARY":
        current.summary = unescapeText(line.value);
        break;
      case "LOCATION":
        current.location = unescapeText(line.value);
        break;
      case "DESCRIPTION":
        current.description = unescapeText(line.value);
        break;
      case "URL":
        current.url = line.value;
        break;
      case "DTSTART":
        current.start = parseTime(line.value, line.params);
        break;
      case "DTEND":
        current.endTime = parseTime(line.value, line.params);
        break;
      case "DURATION":
        current.durationMs = parseDuration(line.value);
        break;
      case "RRULE":
        current.rrule = line.value;
        break;
      case "EXDATE":
        for (const value of line.value.split(",")) {
          const time = parseTime(value, line.params);
          if (time) current.exdates.push(time);
        }
        break;
      case "RECURRENCE-ID":
        current.recurrenceId = parseTime(line.value, line.params);
        break;
      case "STATUS":
        current.cancelled = line.value.toUpperCase() === "CANCELLED";
        break;
      default:
        if (line.name.startsWith("X-")) current.extra.push(unescapeText(line.value));
    }
  }
  return events;
}

function finish(
  e: Partial<IcsEvent> & { exdates: IcsTime[]; extra: string[]; endTime?: IcsTime; durationMs?: number },
): IcsEvent | undefined {
  if (!e.start) return undefined;
  const end = e.endTime ?? { durationMs: e.durationMs ?? (e.start.allDay ? 86_400_000 : 0) };
  return {
    uid: e.uid ?? "",
    summary: e.summary ?? "",
    location: e.location ?? "",
    description: e.description ?? "",
    url: e.url ?? "",
    start: e.start,
    end,
    ...(e.rrule ? { rrule: e.rrule } : {}),
    exdates: e.exdates,
    ...(e.recurrenceId ? { recurrenceId: e.recurrenceId } : {}),
    cancelled: e.cancelled ?? false,
    extra: e.extra,
  };
}
