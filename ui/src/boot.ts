/** A tiny classic script that runs before the app's bundle: it starts the ticket trade at once. */
import { EARLY_TRADE, startTicketTrade } from "./ticket.js";

(window as unknown as Record<string, unknown>)[EARLY_TRADE] = startTicketTrade(location, history);
