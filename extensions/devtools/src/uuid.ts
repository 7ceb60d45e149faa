/** UUIDs: make v4 (random) and v7 (time-ordered, RFC 9562) ones; read one's version and variant. */
import { code, date, status, table, type Block } from "@svc/api";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const dashed = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

export type RandomFill = (bytes: Uint8Array) => Uint8Array;
const cryptoFill: RandomFill = (bytes) => crypto.getRandomValues(bytes);

export function uuidV4(fill: RandomFill = cryptoFill): string {
  const b = fill(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return dashed(hex(b));
}

/**
 * `count` v7 UUIDs in increasing order: the 48-bit millisecond time, then 74 random bits; within
 * one millisecond the random part counts up (RFC 9562 §6.2, method 2), so the list sorts as made.
 */
export function uuidV7s(count: number, now: number = Date.now(), fill: RandomFill = cryptoFill): string[] {
  const out: string[] = [];
  const b = fill(new Uint8Array(16));
  let ms = Math.floor(now);
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      // Count up from the last one: add 1 to the last 56 random bits (bytes 9–15, clear of the
      // version and variant bits), low byte first; when they all wrap around, move to the next
      // millisecond so the order still holds.
      let j = 15;
      for (; j >= 9; j--) {
        b[j] = (b[j] + 1) & 0xff;
        if (b[j] !== 0) break;
      }
      if (j < 9) ms++;
    }
    let rest = ms;
    for (let j = 5; j >= 0; j--) {
      b[j] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    b[6] = (b[6] & 0x0f) | 0x70;
    b[8] = (b[8] & 0x3f) | 0x80;
    out.push(dashed(hex(b)));
  }
  return out;
}

const VARIANTS: Array<[number, string]> = [
  [0xe0, "reserved for the future"],
  [0xc0, "Microsoft (legacy)"],
  [0x80, "RFC 9562"],
  [0x00, "NCS (legacy)"],
];

/**
 * What a UUID is: its version and variant, and for v1, v6 and v7 the time it holds.
 *
 * @example
 * describeUuid("018f0000-0000-7000-8000-000000000000")
 */
export function describeUuid(input: string): Block[] {
  const text = input
    .trim()
    .replace(/^urn:uuid:/i, "")
    .replace(/^\{(.*)\}$/, "$1");
  const compact = text.replace(/-/g, "");
  if (
    !/^[0-9a-f]{32}$/i.test(compact) ||
    (text.includes("-") && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text))
  ) {
    return [status("Not a UUID: it should be 32 hex digits, as 8-4-4-4-12", "critical")];
  }
  const h = compact.toLowerCase();
  if (/^0+$/.test(h)) return [status("Valid: the nil UUID (all zeros)", "positive")];
  if (/^f+$/.test(h)) return [status("Valid: the max UUID (all ones)", "positive")];
  const version = parseInt(h[12], 16);
  const variantByte = parseInt(h.slice(16, 18), 16);
  const variant = VARIANTS.find(([mask]) => (variantByte & mask) === mask)?.[1] ?? "NCS (legacy)";
  const rows: Array<{ name: string; value: string | ReturnType<typeof date> }> = [
    { name: "UUID", value: dashed(h) },
    {
      name: "Version",
      value: `${version}${["", " (time)", " (DCE)", " (MD5 name)", " (random)", " (SHA-1 name)", " (reordered time)", " (Unix time)", " (custom)"][version] ?? ""}`,
    },
    { name: "Variant", value: variant },
  ];
  let ms: number | undefined;
  if (version === 7) ms = parseInt(h.slice(0, 12), 16);
  if (version === 1 || version === 6) {
    const ticks =
      version === 1
        ? BigInt(`0x${h.slice(13, 16)}${h.slice(8, 12)}${h.slice(0, 8)}`)
        : BigInt(`0x${h.slice(0, 12)}${h.slice(13, 16)}`);
    ms = Number((ticks - 122192928000000000n) / 10000n);
  }
  if (ms !== undefined && ms < 253402300800000)
    rows.push({ name: "Made", value: date(new Date(ms)) }, { name: "Made (UTC)", value: new Date(ms).toISOString() });
  const known = variant === "RFC 9562" && version >= 1 && version <= 8;
  return [
    status(
      known
        ? `Valid: a version ${version} UUID`
        : `32 hex digits, but not a standard UUID (version ${version}, ${variant} variant)`,
      known ? "positive" : "warning",
    ),
    table(rows),
  ];
}

/**
 * @example
 * uuidTool("generate", { input: "", version: "v7", count: 3 })
 */
export function uuidTool(
  action: "generate" | "validate",
  values: { input: string; version: string; count: number },
  now: number = Date.now(),
): Block[] {
  if (action === "validate")
    return values.input.trim() === "" ? [status("Paste a UUID to check it.")] : describeUuid(values.input);
  const count = Math.max(1, Math.min(50, Math.floor(values.count)));
  const list = values.version === "v7" ? uuidV7s(count, now) : Array.from({ length: count }, () => uuidV4());
  return [code(list.join("\n"))];
}
