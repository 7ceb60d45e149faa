/**
 * The pairs the person chose, read from two text options. Pure: tests read it directly.
 */

/** Most blips this extension shows at once: a notch, not a trading screen. */
export const MAX_PAIRS = 8;

export interface Pair {
  kind: "crypto" | "fx";
  base: string;
  quote: string;
  /** The blip key: `crypto-BTC-USD`, `fx-EUR-USD`. */
  key: string;
}

export interface Chosen {
  pairs: Pair[];
  /** Entries that are not a pair, as typed. */
  unreadable: string[];
  /** Pairs past MAX_PAIRS, left out. */
  leftOut: number;
}

const CRYPTO = /^([A-Z0-9]{2,10})-([A-Z0-9]{2,10})$/;
const FX = /^([A-Z]{3})[/-]([A-Z]{3})$/;

function entries(value: unknown): string[] {
  return typeof value === "string" ? value.split(/[\s,;]+/).filter(Boolean) : [];
}

export function chosenPairs(crypto: unknown, currencies: unknown): Chosen {
  const pairs: Pair[] = [];
  const unreadable: string[] = [];
  const seen = new Set<string>();
  const add = (kind: Pair["kind"], typed: string, pattern: RegExp) => {
    const match = pattern.exec(typed.toUpperCase());
    if (!match) return unreadable.push(typed);
    const [, base, quote] = match as unknown as [string, string, string];
    const key = `${kind}-${base}-${quote}`;
    if (!seen.has(key)) pairs.push({ kind, base, quote, key });
    seen.add(key);
  };
  for (const typed of entries(crypto)) add("crypto", typed, CRYPTO);
  for (const typed of entries(currencies)) add("fx", typed, FX);
  return { pairs: pairs.slice(0, MAX_PAIRS), unreadable, leftOut: Math.max(0, pairs.length - MAX_PAIRS) };
}
