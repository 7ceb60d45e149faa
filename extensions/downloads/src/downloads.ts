/**
 * What a Downloads folder says about downloads under way. Browsers write into a file of their
 * own until the download is whole, then rename it: Chrome and its kin `<name>.crdownload`,
 * Firefox `<name>.part` (beside an empty `<name>` placeholder), Safari a `<name>.download`
 * bundle holding the partial file under its final name.
 */

const PARTIALS: { suffix: string; browser: string }[] = [
  { suffix: ".crdownload", browser: "Chrome" },
  { suffix: ".part", browser: "Firefox" },
  { suffix: ".download", browser: "Safari" },
];

export interface Partial {
  /** The name in the folder. */
  entry: string;
  /** The file's name once whole. */
  name: string;
  browser: string;
  /** The path to measure, relative to the folder (inside the bundle for Safari). */
  measure: string;
}

/** The partial downloads among a folder's names. */
export function partials(entries: string[]): Partial[] {
  const found: Partial[] = [];
  for (const entry of entries) {
    const kind = PARTIALS.find((p) => entry.endsWith(p.suffix) && entry.length > p.suffix.length);
    if (!kind) continue;
    const name = entry.slice(0, -kind.suffix.length);
    found.push({
      entry,
      name,
      browser: kind.browser,
      measure: kind.suffix === ".download" ? `${entry}/${name}` : entry,
    });
  }
  return found;
}

/** GNU `stat -c` format: size in bytes, then the file's name (coreutils manual, "stat invocation"). */
export const STAT_FORMAT = "%s\t%n";

/** `stat -c '%s\t%n' -- a b`: sizes by the name given. Lines it cannot read are left out. */
export function parseStat(stdout: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const line of stdout.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab <= 0) continue;
    const size = Number(line.slice(0, tab));
    if (Number.isInteger(size) && size >= 0) sizes.set(line.slice(tab + 1), size);
  }
  return sizes;
}

/** A short stable id for a file name (list item ids are at most 64 characters): FNV-1a, hex. */
export function idFor(name: string): string {
  let hash = 0x811c9dc5;
  for (const unit of new TextEncoder().encode(name)) {
    hash ^= unit;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `dl-${hash.toString(16).padStart(8, "0")}`;
}
