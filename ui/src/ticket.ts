/**
 * The one-time ticket in the URL fragment (`#t=<ticket>`), traded for a session as early as the
 * page can: `boot.ts` starts the trade before the app's bundle has even loaded, so the round trip
 * overlaps the download. The fragment is dropped from the address bar at once.
 */
const TICKET_IN_FRAGMENT = /^#t=([A-Za-z0-9_-]{1,100})$/;

/** Starts `POST /api/session` for the fragment's ticket; undefined when the page has none. */
export function startTicketTrade(location: Location, history: History): Promise<Response> | undefined {
  const ticket = TICKET_IN_FRAGMENT.exec(location.hash)?.[1];
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (!ticket) return undefined;
  return fetch("/api/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ticket }),
  });
}

/** Where boot.ts leaves the trade it started for the app to pick up. */
export const EARLY_TRADE = "svcTicketTrade";
