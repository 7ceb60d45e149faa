/**
 * Asking MET Norway as their terms say (https://api.met.no/doc/TermsOfService): an identifying
 * User-Agent on every request, coordinates to at most 4 decimals, no new request before the
 * answer's `Expires`, and `If-Modified-Since` with the last answer's `Last-Modified` so an
 * unchanged forecast comes back as an empty 304.
 */

export const FORECAST_URL = "https://api.met.no/weatherapi/locationforecast/2.0/compact";

/** Who we are: MET blocks requests without an identifying User-Agent (403). */
export const USER_AGENT = "svc-weather/1.0 (app.svc.weather, an extension of the svc notch app)";

export interface Location {
  latitude: number;
  longitude: number;
}

/** The location the person set, or why there is none. */
export function locationOf(preferences: Record<string, unknown>): Location | string {
  const latitude = preferences.latitude;
  const longitude = preferences.longitude;
  if (typeof latitude !== "number" || typeof longitude !== "number") {
    return "Set latitude and longitude in Settings";
  }
  if (!(latitude >= -90 && latitude <= 90)) return `Latitude ${latitude} is not between -90 and 90`;
  if (!(longitude >= -180 && longitude <= 180)) return `Longitude ${longitude} is not between -180 and 180`;
  return { latitude, longitude };
}

/** At most 4 decimals, as MET asks (more identifies a house and defeats their cache). */
const fixed = (degrees: number) => String(Math.round(degrees * 10_000) / 10_000);

export function forecastUrl(location: Location): string {
  return `${FORECAST_URL}?lat=${fixed(location.latitude)}&lon=${fixed(location.longitude)}`;
}

/** The request's headers: who we are (with the person's contact when given), and what we have. */
export function requestHeaders(contact: unknown, lastModified: string | undefined): Record<string, string> {
  const who = typeof contact === "string" && contact.trim() ? `${USER_AGENT} ${contact.trim()}` : USER_AGENT;
  return {
    "User-Agent": who,
    Accept: "application/json",
    ...(lastModified ? { "If-Modified-Since": lastModified } : {}),
  };
}

/** When to ask again: the answer's `Expires` (epoch ms), else `fallback`. */
export function expiresOf(headers: Headers, fallback: number): number {
  const expires = Date.parse(headers.get("expires") ?? "");
  return Number.isFinite(expires) ? expires : fallback;
}
