/**
 * Colours: hex, rgb(), hsl(), oklch() and a few names in; every form out with a swatch, and the
 * WCAG contrast ratio against a second colour. OKLab/OKLCH by Björn Ottosson's published
 * matrices; sRGB transfer as in the CSS Color 4 spec.
 */
import { color, status, table, type Block } from "@svc/api";

/** sRGB channels 0–1 and alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const NAMED: Record<string, string> = {
  black: "#000000",
  white: "#ffffff",
  red: "#ff0000",
  green: "#008000",
  blue: "#0000ff",
  yellow: "#ffff00",
  orange: "#ffa500",
  purple: "#800080",
  gray: "#808080",
  grey: "#808080",
  transparent: "#00000000",
};

const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

function parseHex(hex: string): Rgba | undefined {
  const m = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(hex);
  if (!m) return undefined;
  let digits = m[1];
  if (digits.length <= 4) digits = [...digits].map((d) => d + d).join("");
  const channel = (i: number) => parseInt(digits.slice(i, i + 2), 16) / 255;
  return { r: channel(0), g: channel(2), b: channel(4), a: digits.length === 8 ? channel(6) : 1 };
}

/** `12`, `12.5%`, `0.5` as a number; `%` scaled by `percentOf`. */
function amount(text: string, percentOf: number): number {
  const n = parseFloat(text);
  if (!Number.isFinite(n)) throw new Error(`${JSON.stringify(text)} is not a number`);
  return text.endsWith("%") ? (n / 100) * percentOf : n;
}

function hue(text: string): number {
  const n = parseFloat(text);
  if (!Number.isFinite(n)) throw new Error(`${JSON.stringify(text)} is not a hue`);
  if (text.endsWith("turn")) return n * 360;
  if (text.endsWith("rad")) return (n * 180) / Math.PI;
  return n;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)];
}

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

function oklchToRgb(L: number, C: number, h: number): { rgb: [number, number, number]; inGamut: boolean } {
  const a = C * Math.cos((h * Math.PI) / 180);
  const b = C * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  const inGamut = linear.every((c) => c >= -1e-4 && c <= 1 + 1e-4);
  return { rgb: linear.map((c) => clamp01(fromLinear(clamp01(c)))) as [number, number, number], inGamut };
}

/** The arguments inside `name(...)`: commas or spaces, with an optional `/ alpha`. */
function args(body: string): { values: string[]; alpha?: string } {
  const [main, alpha] = body.split("/").map((part) => part.trim());
  const values = main.split(/[\s,]+/).filter(Boolean);
  if (alpha === undefined && values.length === 4) return { values: values.slice(0, 3), alpha: values[3] };
  return { values, ...(alpha === undefined ? {} : { alpha }) };
}

/**
 * Reads a CSS colour.
 *
 * @example
 * parseColor("oklch(62.8% 0.2577 29.23)") // ≈ { r: 1, g: 0, b: 0, a: 1, inGamut: true }
 * @throws Error saying what it could not read.
 */
export function parseColor(input: string): Rgba & { inGamut: boolean } {
  const text = input.trim().toLowerCase();
  const hex = parseHex(NAMED[text] ?? text);
  if (hex) return { ...hex, inGamut: true };
  const call = /^(rgba?|hsla?|oklch)\(\s*([^)]*)\)$/.exec(text);
  if (!call) throw new Error("write a colour as #rrggbb, rgb(…), hsl(…) or oklch(…)");
  const [, fn, body] = call;
  const { values, alpha } = args(body);
  if (values.length !== 3) throw new Error(`${fn}() takes 3 values, got ${values.length}`);
  const a = alpha === undefined ? 1 : clamp01(amount(alpha, 1));
  if (fn.startsWith("rgb")) {
    const [r, g, b] = values.map((v) => clamp01(amount(v, 255) / 255));
    return { r, g, b, a, inGamut: true };
  }
  if (fn.startsWith("hsl")) {
    const [r, g, b] = hslToRgb(
      ((hue(values[0]) % 360) + 360) % 360,
      clamp01(amount(values[1], 100) / 100),
      clamp01(amount(values[2], 100) / 100),
    );
    return { r, g, b, a, inGamut: true };
  }
  const L = values[0].endsWith("%") ? amount(values[0], 1) : parseFloat(values[0]);
  const C = amount(values[1], 0.4);
  const { rgb, inGamut } = oklchToRgb(clamp01(L), Math.max(0, C), hue(values[2]));
  return { r: rgb[0], g: rgb[1], b: rgb[2], a, inGamut };
}

const byte = (c: number) => Math.round(clamp01(c) * 255);
const round = (n: number, digits: number) => Number(n.toFixed(digits));

export function toHex({ r, g, b, a }: Rgba): string {
  const hex = [r, g, b, ...(a < 1 ? [a] : [])].map((c) => byte(c).toString(16).padStart(2, "0")).join("");
  return `#${hex}`;
}

function toHsl({ r, g, b }: Rgba): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l * 100];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s * 100, l * 100];
}

export function toOklch({ r, g, b }: Rgba): [number, number, number] {
  const [lr, lg, lb] = [r, g, b].map(toLinear);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  const C = Math.sqrt(A * A + B * B);
  const h = C < 1e-4 ? 0 : ((Math.atan2(B, A) * 180) / Math.PI + 360) % 360;
  return [L, C, h];
}

/** WCAG 2 relative luminance. */
function luminance({ r, g, b }: Rgba): number {
  return 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
}

/** WCAG 2 contrast ratio, 1–21. */
export function contrastRatio(x: Rgba, y: Rgba): number {
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}

function grade(ratio: number): string {
  if (ratio >= 7) return "AAA";
  if (ratio >= 4.5) return "AA (AAA for large text)";
  if (ratio >= 3) return "AA for large text only";
  return "fails WCAG";
}

/**
 * @example
 * colorTool({ input: "#ff8800", against: "#ffffff" })
 */
export function colorTool(values: { input: string; against: string }): Block[] {
  if (values.input.trim() === "")
    return [status("Type a colour: #ff8800, rgb(255 136 0), hsl(32 100% 50%) or oklch(…).")];
  let c: ReturnType<typeof parseColor>;
  try {
    c = parseColor(values.input);
  } catch (error) {
    return [status(`Not a colour: ${(error as Error).message}`, "critical")];
  }
  const [h, s, l] = toHsl(c);
  const [L, C, H] = toOklch(c);
  const alpha = c.a < 1 ? ` / ${round(c.a, 3)}` : "";
  const blocks: Block[] = [color(toHex(c))];
  if (!c.inGamut) blocks.push(status("Outside sRGB: shown as the nearest colour a screen can make", "warning"));
  const rows: Record<string, string> = {
    Hex: toHex(c),
    RGB: `rgb(${byte(c.r)} ${byte(c.g)} ${byte(c.b)}${alpha})`,
    HSL: `hsl(${round(h, 1)} ${round(s, 1)}% ${round(l, 1)}%${alpha})`,
    OKLCH: `oklch(${round(L * 100, 2)}% ${round(C, 4)} ${round(H, 2)}${alpha})`,
  };
  if (values.against.trim() !== "") {
    try {
      const other = parseColor(values.against);
      const ratio = contrastRatio(c, other);
      rows[`Contrast with ${toHex(other)}`] = `${round(ratio, 2)}:1, ${grade(ratio)}`;
      blocks.push(color(toHex(other)));
    } catch (error) {
      blocks.push(status(`The colour to compare with is not a colour: ${(error as Error).message}`, "warning"));
    }
  }
  blocks.splice(c.inGamut ? 1 : 2, 0, table(rows));
  return blocks;
}
