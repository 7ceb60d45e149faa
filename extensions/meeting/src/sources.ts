/**
 * Where the calendar comes from: the address the person set (the secret one, else the url
 * option itself) and the .ics files in ~/Calendars. Only the person can allow a server (a `url`
 * option); the secret address is kept as a password option and must lie on that server, since
 * the fence lets `fetch` reach nothing else.
 */

export const FOLDER = "~/Calendars";

/** The address to fetch, or what to fix; `undefined` when no address is set at all. */
export function remoteAddress(server: unknown, secret: unknown): { url: string } | { problem: string } | undefined {
  const given = typeof secret === "string" && secret.trim() ? secret.trim() : typeof server === "string" ? server : "";
  if (!given) return undefined;
  let url: URL;
  try {
    // Calendars hand out webcal:// addresses: the same address over https.
    url = new URL(given.replace(/^webcals?:\/\//i, "https://"));
  } catch {
    return { problem: "The calendar address is not a web address" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { problem: "The calendar address is not a web address" };
  if (typeof server !== "string" || !server) {
    return { problem: `Set Calendar server to ${url.origin}, then allow it` };
  }
  const allowed = URL.canParse(server) ? new URL(server).origin : "";
  if (given === server && url.pathname === "/" && !url.search) {
    return { problem: "Add your calendar's secret address in Settings" };
  }
  if (url.origin !== allowed)
    return { problem: `The calendar address is not on ${allowed}: set Calendar server to ${url.origin}` };
  return { url: url.href };
}
