/**
 * MET Norway's weather symbol codes (https://api.met.no/weatherapi/weathericon/2.0/documentation:
 * `clearsky_day`, `lightrainshowers_night`, `heavysnowandthunder` …) as words and as an icon svc
 * draws. A code is a condition, maybe followed by `_day`, `_night` or `_polartwilight`.
 */

/** The condition's words, for a code we know, else the code made readable. */
export function conditionOf(code: string | undefined): string {
  if (!code) return "";
  const [condition = ""] = code.split("_");
  const known: Record<string, string> = {
    clearsky: "Clear",
    fair: "Fair",
    partlycloudy: "Partly cloudy",
    cloudy: "Cloudy",
    fog: "Fog",
  };
  if (known[condition]) return known[condition];
  // The rest are built from parts: light/heavy, rain/sleet/snow, showers, and thunder.
  const strength = /^light/.test(condition) ? "Light " : /^heavy/.test(condition) ? "Heavy " : "";
  const kind = /sleet/.test(condition)
    ? "sleet"
    : /snow/.test(condition)
      ? "snow"
      : /rain/.test(condition)
        ? "rain"
        : "";
  if (!kind) return condition;
  const showers = /showers/.test(condition) ? " showers" : "";
  const thunder = /thunder/.test(condition) ? " and thunder" : "";
  const words = `${strength}${kind}${showers}${thunder}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The icon for a code: sun or moon by time of day, clouds, rain, snow, thunder. */
export function iconOf(code: string | undefined): string {
  if (!code) return "thermometer.medium";
  const [condition = "", time] = code.split("_");
  const night = time === "night";
  if (/thunder/.test(condition)) return "cloud.bolt";
  if (/snow|sleet/.test(condition)) return "cloud.snow";
  if (/^heavyrain/.test(condition)) return "cloud.heavyrain";
  if (/rainshowers/.test(condition)) return night ? "cloud.rain" : "cloud.sun.rain";
  if (/^lightrain/.test(condition)) return "cloud.drizzle";
  if (/rain/.test(condition)) return "cloud.rain";
  if (condition === "fog") return "cloud.fog";
  if (condition === "cloudy") return "cloud";
  if (condition === "clearsky") return night ? "moon.stars" : "sun.max";
  return night ? "cloud.moon" : "cloud.sun"; // fair, partlycloudy
}
