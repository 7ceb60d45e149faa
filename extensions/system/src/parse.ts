/**
 * Reading the output of `df -kP`, `free -b`, `uptime` and `getconf _NPROCESSORS_ONLN`. Each
 * parser returns undefined for output it does not recognise, so one odd command leaves out
 * one gauge, not the blip.
 */

export interface Usage {
  used: number;
  total: number;
}

/**
 * `df -kP <path>`: the second line's used and available 1K blocks.
 *
 * @example
 * parseDf("Filesystem 1024-blocks Used Available Capacity Mounted on\n/dev/sda1 100 71 29 71% /\n"); // { used: 72704, total: 102400 }
 */
export function parseDf(output: string): Usage | undefined {
  const line = output.trim().split("\n")[1];
  const columns = line?.trim().split(/\s+/);
  if (!columns || columns.length < 6) return undefined;
  const used = Number(columns[columns.length - 4]);
  const available = Number(columns[columns.length - 3]);
  if (!Number.isFinite(used) || !Number.isFinite(available) || used + available <= 0) return undefined;
  return { used: used * 1024, total: (used + available) * 1024 };
}

/**
 * `free -b`: memory in use is total minus available.
 *
 * @example
 * parseFree("              total        used        free      shared  buff/cache   available\nMem:    1000 300 200 0 500 600\n"); // { used: 400, total: 1000 }
 */
export function parseFree(output: string): Usage | undefined {
  const lines = output.trim().split("\n");
  const header = lines[0]?.trim().split(/\s+/) ?? [];
  const mem = lines
    .find((line) => line.startsWith("Mem:"))
    ?.trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  if (!mem) return undefined;
  const total = mem[header.indexOf("total")];
  const available = mem[header.indexOf("available")];
  if (
    total === undefined ||
    available === undefined ||
    !Number.isFinite(total) ||
    !Number.isFinite(available) ||
    total <= 0
  )
    return undefined;
  return { used: total - available, total };
}

/**
 * `uptime`: the one-minute load average (Linux "load average: 0.52, …", macOS "load averages: 1.20 …").
 *
 * @example
 * parseLoad(" 10:01:02 up 3 days,  2:03,  1 user,  load average: 0.52, 0.58, 0.59"); // 0.52
 */
export function parseLoad(output: string): number | undefined {
  const match = /load averages?:\s*([0-9]+(?:[.,][0-9]+)?)/.exec(output);
  if (!match) return undefined;
  const value = Number(match[1]!.replace(",", "."));
  return Number.isFinite(value) ? value : undefined;
}

/**
 * `uptime`: how long the machine has been up, as written ("3 days,  2:03" → "3 days, 2:03").
 *
 * @example
 * parseUp(" 10:01:02 up 3 days,  2:03,  1 user,  load average: 0.52, 0.58, 0.59"); // "3 days, 2:03"
 */
export function parseUp(output: string): string | undefined {
  const match = /up\s+(.+?),\s+\d+\s+users?/.exec(output) ?? /up\s+(.+?),\s+load/.exec(output);
  return match ? match[1]!.replace(/\s+/g, " ").trim() : undefined;
}

/** A positive whole number of processors, or undefined. */
export function parseCpuCount(output: string): number | undefined {
  const n = Number(output.trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Bytes as a short figure: `1.5 GB`.
 *
 * @example
 * bytes(1_610_612_736); // "1.5 GB"
 */
export function bytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB", "PB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
