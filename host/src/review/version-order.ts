/**
 * Which of two versions is older, for refusing a downgrade. Versions are `major.minor.patch`
 * with an optional `-prerelease` (semver's order); a version that is not one cannot be ordered,
 * and then nothing is refused for being older.
 */
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function comparePre(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1; // a release is newer than its prereleases
  if (b === undefined) return -1;
  const left = a.split(".");
  const right = b.split(".");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] === undefined) return -1;
    if (right[i] === undefined) return 1;
    const numeric = /^\d+$/.test(left[i]) && /^\d+$/.test(right[i]);
    const order = numeric ? Number(left[i]) - Number(right[i]) : left[i] < right[i] ? -1 : left[i] > right[i] ? 1 : 0;
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

/**
 * True when `next` is older than `installed`; false when it is not, or either cannot be ordered.
 *
 * @example
 * isOlder("1.0.0", "1.2.0") // true
 * isOlder("1.2.0-beta.1", "1.2.0") // true
 */
export function isOlder(next: string, installed: string): boolean {
  const a = SEMVER.exec(next);
  const b = SEMVER.exec(installed);
  if (!a || !b) return false;
  for (let i = 1; i <= 3; i++) if (Number(a[i]) !== Number(b[i])) return Number(a[i]) < Number(b[i]);
  return comparePre(a[4], b[4]) < 0;
}
