/**
 * Home Assistant: the chosen entities (`GET /api/states/<entity_id>`) as one list, read every
 * minute from the address the person allowed (a `url` option: often a private LAN address),
 * with the long-lived token from the password option (the OS secret store). Toggle calls
 * `POST /api/services/<domain>/toggle`. Automations push events through svc-hook (`onEvent`):
 * each shows as a blip for 15 minutes.
 */
import {
  backoff,
  connectionBlip,
  defineExtension,
  list,
  probe,
  stat,
  type Ctx,
  type ListItem,
  type Problem,
} from "@svc/api";
import { chosenEntities, canToggle, domainOf, entityItem, type HaState } from "./entities.js";
import { readPush } from "./push.js";

const KEY = "entities";
const SETUP = "setup";
const FAILURES_KEY = "failures";
/** Fresh for two runs (the interval is 1 minute). */
const STALE_AFTER = 3 * 60;

class SetupNeeded extends Error {
  constructor(
    readonly value: string,
    readonly label: string,
  ) {
    super(value);
  }
}

interface Connection {
  server: string;
  headers: Record<string, string>;
}

function connection(ctx: Ctx): Connection {
  const server = ctx.preferences.server;
  const token = ctx.preferences.token;
  if (typeof server !== "string" || server === "")
    throw new SetupNeeded("Set your Home Assistant address", "In Settings, e.g. http://192.168.1.20:8123");
  if (typeof token !== "string" || token === "")
    throw new SetupNeeded(
      "Add a long-lived access token",
      "Home Assistant: your profile → Security → Long-lived access tokens; paste it in Settings",
    );
  return { server, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } };
}

async function showSetup(ctx: Ctx, problem: SetupNeeded): Promise<void> {
  await ctx.remove(KEY);
  await ctx.emit(
    stat(SETUP, { title: "Home Assistant", icon: "house", state: "idle", value: problem.value, label: problem.label }),
  );
}

/** The token was refused: say so, and what to set. */
const refused = () =>
  stat(KEY, {
    title: "Home Assistant",
    icon: "key",
    state: "failure",
    value: "Token refused (401)",
    label: "Make a new long-lived token in Home Assistant (your profile → Security) and set it in Settings",
  });

type Read = { ok: true; item: ListItem } | { ok: false; problem: Problem; id: string };

async function readEntity(conn: Connection, id: string): Promise<Read> {
  const url = new URL(`/api/states/${encodeURIComponent(id)}`, conn.server);
  const res = await probe(fetch(url, { headers: conn.headers }));
  if (!res.ok) return { ok: false, problem: res.problem, id };
  const body = await probe(res.value.json() as Promise<HaState>);
  if (!body.ok || typeof body.value?.state !== "string")
    return { ok: false, problem: { kind: "failed", message: "Not a Home Assistant answer" }, id };
  return { ok: true, item: entityItem({ ...body.value, entity_id: id }) };
}

const problemRow = (read: Extract<Read, { ok: false }>): ListItem => ({
  id: read.id,
  title: read.id,
  subtitle: read.problem.kind === "not-found" ? "Not found in Home Assistant: check the id" : read.problem.message,
  state: read.problem.kind === "not-found" ? "warning" : "failure",
});

async function show(ctx: Ctx): Promise<{ nextRunAfter?: number } | undefined> {
  let conn: Connection;
  try {
    conn = connection(ctx);
  } catch (error) {
    if (error instanceof SetupNeeded) return void (await showSetup(ctx, error));
    throw error;
  }
  const { ids, invalid } = chosenEntities(ctx.preferences.entities);
  if (ids.length === 0) {
    await showSetup(
      ctx,
      new SetupNeeded(
        invalid.length ? `"${invalid[0]}" is not an entity id` : "Choose entities to show",
        "In Settings, one per line, like light.kitchen or sensor.living_room_temperature",
      ),
    );
    return undefined;
  }
  await ctx.remove(SETUP);
  const reads = await Promise.all(ids.slice(0, 5).map((id) => readEntity(conn, id)));
  const failures = (await ctx.storage.get<number>(FAILURES_KEY)) ?? 0;
  const problems = reads.flatMap((r) => (r.ok ? [] : [r.problem]));
  if (problems.some((p) => p.kind === "signed-out")) {
    await ctx.emit(refused());
    return undefined; // a person must act; the interval asks again without hammering
  }
  if (problems.length === reads.length && problems.every((p) => p.kind !== "not-found")) {
    // Nothing read at all: Home Assistant is unreachable (or down), not every entity gone.
    await ctx.emit(connectionBlip(KEY, problems[0], { title: "Home Assistant", icon: "house" }));
    await ctx.storage.set(FAILURES_KEY, failures + 1);
    return { nextRunAfter: problems[0].retryAfter ?? backoff(failures) };
  }
  await ctx.storage.delete(FAILURES_KEY);
  const items = reads.map((r) => (r.ok ? r.item : problemRow(r)));
  await ctx.emit(
    list(KEY, {
      title: "Home Assistant",
      icon: "house",
      subtitle: new URL(conn.server).host,
      url: conn.server,
      items,
      total: ids.length,
      staleAfter: STALE_AFTER,
    }),
  );
  return undefined;
}

export default defineExtension({
  update: (ctx) => show(ctx),

  async onAction(ctx, action) {
    if (action.actionId !== "toggle" || !action.itemId || !canToggle(action.itemId)) return;
    if (!chosenEntities(ctx.preferences.entities).ids.includes(action.itemId)) return; // only what the person chose
    const conn = connection(ctx);
    const url = new URL(`/api/services/${domainOf(action.itemId)}/toggle`, conn.server);
    const res = await probe(
      fetch(url, { method: "POST", headers: conn.headers, body: JSON.stringify({ entity_id: action.itemId }) }),
    );
    if (!res.ok) {
      if (res.problem.kind === "signed-out") return void (await ctx.emit(refused()));
      // Throwing fails the press: the page says so, and the row stays as it was.
      throw new Error(`Home Assistant did not toggle ${action.itemId}: ${res.problem.message}`);
    }
    await show(ctx);
  },

  async onEvent(ctx, event) {
    if (event.type !== "webhook") return;
    const push = readPush(event.body);
    if (event.replyId) {
      await ctx.respond(
        event.replyId,
        push ? { ok: true } : { ok: false, error: 'send {"title": …, "message": …}' },
        push ? 200 : 400,
      );
    }
    if (!push) {
      ctx.log.warn('an event without "title" or "message" was ignored');
      return;
    }
    await ctx.emit(stat("event", { title: push.title, icon: push.icon, state: push.state, value: push.message }));
    await ctx.end("event", { state: push.state, dismissAfter: 15 * 60 });
    // An event about a shown entity means its state moved: read the list again now.
    if (push.entityId && chosenEntities(ctx.preferences.entities).ids.includes(push.entityId)) await show(ctx);
  },
});
