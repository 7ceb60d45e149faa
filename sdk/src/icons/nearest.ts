/**
 * The known word a misspelt one most likely meant, by edit distance. Shared by svckit's manifest
 * key check ("did you mean interval?") and the icon check ("did you mean gauge?").
 */

/** Edit distance with transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest of `known` to `word` (case aside) within `slack` of the candidate's length
 * (a third by default), else none. Ties go to the first in `known`.
 *
 * @example
 * nearestWord("intervall", ["id", "interval"]) // "interval"
 * nearestWord("colour", ["id", "interval"])    // undefined
 */
export function nearestWord(word: string, known: readonly string[], slack = 1 / 3): string | undefined {
  let best: { word: string; cost: number } | undefined;
  for (const candidate of known) {
    const cost = distance(word.toLowerCase(), candidate.toLowerCase());
    if (cost <= Math.max(1, Math.floor(candidate.length * slack)) && (!best || cost < best.cost))
      best = { word: candidate, cost };
  }
  return best?.word;
}
