/**
 * Home Assistant with @svc/testkit (`svckit test`): recordings written from Home Assistant's
 * REST API docs (test/recordings/*.json, each naming its source) on the LAN address the person
 * allowed, the token as the password option (kept in the secret store; never recorded), Toggle
 * pressed as the notch presses it, an automation's push as a webhook event, and an unanswered loopback
 * address for "Home Assistant does not answer".
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, unansweredAddress, type TestExtension } from "@svc/testkit";
import { chosenEntities, entityItem } from "../src/entities.js";

const SERVER = "http://192.168.1.20:8123";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.long-lived";
type Item = {
  id: string;
  title: string;
  subtitle?: string;
  state?: string;
  value?: unknown;
  actions?: { id: string }[];
};
const items = (ext: TestExtension) => (ext.blip("entities")?.data as { items: Item[] }).items;

async function load(t: { after(fn: () => unknown): void }, options: Parameters<typeof loadExtension>[1]) {
  const ext = await loadExtension(".", options);
  t.after(() => ext.dispose());
  return ext;
}

test("each missing setting is said in turn: the address, the token, the entities", async (t) => {
  const ext = await load(t, {});
  await ext.run("launch");
  assert.deepEqual(ext.blip("setup")?.data, {
    value: "Set your Home Assistant address",
    label: "In Settings, e.g. http://192.168.1.20:8123",
  });
  const withServer = await load(t, { preferences: { server: SERVER } });
  await withServer.run("launch");
  assert.deepEqual(withServer.blip("setup")?.data, {
    value: "Add a long-lived access token",
    label: "Home Assistant: your profile → Security → Long-lived access tokens; paste it in Settings",
  });
  const withToken = await load(t, { preferences: { server: SERVER, token: TOKEN, entities: "Kitchen light" } });
  await withToken.run("launch");
  assert.deepEqual(withToken.blip("setup")?.data, {
    value: '"Kitchen light" is not an entity id',
    label: "In Settings, one per line, like light.kitchen or sensor.living_room_temperature",
  });
  assert.equal(withToken.blip("entities"), undefined);
});

test("the chosen entities, one row each, with Toggle where Home Assistant can toggle", async (t) => {
  const ext = await load(t, {
    recording: "test/recordings/entities.json",
    preferences: {
      server: SERVER,
      token: TOKEN,
      entities: "light.kitchen\nsensor.living_room_temperature\nswitch.coffee_maker\nsensor.garage_door",
    },
  });
  await ext.run("launch");
  const blip = ext.blip("entities");
  assert.equal(blip?.title, "Home Assistant");
  assert.equal(blip?.subtitle, "192.168.1.20:8123");
  assert.equal(blip?.staleAfter, "2025-01-06T09:03:00.000Z");
  assert.deepEqual(items(ext), [
    {
      id: "light.kitchen",
      title: "Kitchen",
      subtitle: "light.kitchen",
      icon: "lightbulb",
      value: "On",
      actions: [{ id: "toggle", title: "Toggle", icon: "power" }],
    },
    {
      id: "sensor.living_room_temperature",
      title: "Living room temperature",
      subtitle: "sensor.living_room_temperature",
      icon: "thermometer",
      value: "21.4 °C",
    },
    {
      id: "switch.coffee_maker",
      title: "Coffee maker",
      subtitle: "switch.coffee_maker",
      icon: "power",
      state: "warning",
      value: "unavailable",
    },
    {
      id: "sensor.garage_door",
      title: "sensor.garage_door",
      subtitle: "Not found in Home Assistant: check the id",
      state: "warning",
    },
  ] as unknown as Item[]);
  assert.deepEqual(ext.denials, []);

  // Toggle: POST /api/services/light/toggle {"entity_id": "light.kitchen"}, then the row reads again.
  await ext.action("entities", "toggle", { itemId: "light.kitchen" });
  assert.deepEqual([items(ext)[0].state, items(ext)[0].value], [undefined, "Off"]);
});

test("a refused token (401): says so and what to set; a Toggle press says the same", async (t) => {
  const ext = await load(t, {
    recording: "test/recordings/unauthorized.json",
    preferences: { server: SERVER, token: "revoked-token", entities: "light.kitchen" },
  });
  assert.equal((await ext.run("launch")).nextRunAfter, undefined, "a person must act: no hammering");
  const blip = ext.blip("entities");
  assert.equal(blip?.state, "failure");
  assert.deepEqual(blip?.data, {
    value: "Token refused (401)",
    label: "Make a new long-lived token in Home Assistant (your profile → Security) and set it in Settings",
  });
  await ext.action("entities", "toggle", { itemId: "light.kitchen" });
  assert.equal((ext.blip("entities")?.data as { value: string }).value, "Token refused (401)");
  // Only what the person chose can be toggled: another id sends nothing (no recorded answer would fail the test).
  await ext.action("entities", "toggle", { itemId: "light.bedroom" });
});

test("Home Assistant does not answer: one offline blip, and runs back off", async (t) => {
  const ext = await load(t, {
    preferences: { server: await unansweredAddress(), token: TOKEN, entities: "light.kitchen" },
  });
  const first = (await ext.run("launch")).nextRunAfter!;
  assert.ok(first >= 5 && first <= 10, `first wait ${first}`);
  assert.deepEqual(ext.blip("entities")?.data, {
    value: { type: "text", value: "No connection" },
    label: "Trying again on the next run",
  });
  const second = (await ext.run()).nextRunAfter!;
  assert.ok(second >= 10 && second <= 20, `second wait ${second}`);
});

test("an automation's push shows as an event for 15 minutes; one without words is refused", async (t) => {
  const ext = await load(t, {});
  const { response } = await ext.event({
    type: "webhook",
    body: { title: "Washing machine", message: "The wash is done", state: "success" },
    reply: true,
  });
  assert.deepEqual(response, { status: 200, body: { ok: true } });
  const event = ext.blip("event");
  assert.equal(event?.title, "Washing machine");
  assert.deepEqual(event?.data, { value: "The wash is done" });
  assert.equal(ext.ended("event")?.dismissAt, "2025-01-06T09:15:00.000Z");
  const refused = await ext.event({ type: "webhook", body: { entity_id: "light.kitchen" }, reply: true });
  assert.deepEqual(refused.response, { status: 400, body: { ok: false, error: 'send {"title": …, "message": …}' } });
});

test("entity ids are read one per line or comma, each once; a typed name is no id", () => {
  assert.deepEqual(chosenEntities("light.kitchen, light.kitchen\n sensor.x \n\nKitchen"), {
    ids: ["light.kitchen", "sensor.x"],
    invalid: ["Kitchen"],
  });
  assert.equal(entityItem({ entity_id: "lock.front_door", state: "locked" }).actions, undefined);
  assert.equal(entityItem({ entity_id: "cover.garage", state: "open" }).actions?.[0]?.id, "toggle");
});
