/**
 * Icons are names looked up in this fixed table (SF Symbol-style names extensions use); a name
 * not in it gets the generic dot. Nothing an extension sends becomes markup or a URL.
 */
const ICONS: Record<string, string> = {
  bell: "♪", "bell.fill": "♪", bolt: "⚡", "bolt.fill": "⚡", calendar: "▦", cart: "⊞",
  "checkmark.circle": "✓", "checkmark.circle.fill": "✓", checkmark: "✓", clock: "◷", cloud: "☁",
  "cloud.rain": "☂", "sun.max": "☀", moon: "☾", cpu: "▣", "dollarsign.circle": "$", envelope: "✉",
  "exclamationmark.triangle": "⚠", "exclamationmark.triangle.fill": "⚠", flag: "⚑", gear: "⚙",
  hammer: "⚒", heart: "♥", house: "⌂", "arrow.up": "↑", "arrow.down": "↓", "arrow.clockwise": "↻",
  "arrow.triangle.branch": "↱", "chart.bar": "▤", "chart.line.uptrend.xyaxis": "↗", basketball: "◍",
  sportscourt: "▭", football: "◍", timer: "◴", hourglass: "⧗", play: "▶", pause: "❚❚", stop: "■",
  xmark: "✕", "xmark.circle": "✕", trash: "⌫", person: "☺", "person.2": "☺", star: "★",
  tag: "⌗", terminal: ">_", doc: "▤", folder: "▭", link: "∞", lock: "⚿", globe: "◎",
  paperplane: "➤", shippingbox: "▣", server: "▥", "server.rack": "▥", wifi: "≋",
  "battery.100": "▮", "music.note": "♫", phone: "✆", video: "▶", "text.bubble": "✎",
  message: "✎", sparkles: "✦", ant: "✱", ladybug: "✱", rocket: "➚",
};

const GENERIC = "•";

/** The glyph for an icon name (or the generic dot). */
export function iconGlyph(name: unknown): string {
  return typeof name === "string" && Object.hasOwn(ICONS, name) ? ICONS[name] : GENERIC;
}
