/**
 * Developer tools with @svc/testkit (`svckit test`): each tool run in the app's own sandbox, its
 * values normalized and its blocks checked and cut by the runtime, as the notch would get them.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, snapshotOf } from "@svc/testkit";

test("json formats with sorted keys and says how long it was", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  const blocks = await ext.tool("json", { action: "format", values: { input: '{"b":1,"a":[1,2]}', sortKeys: true } });
  assert.deepEqual(blocks, [
    { type: "status", text: "Valid JSON", tone: "positive" },
    { type: "code", text: '{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}', language: "json" },
    {
      type: "table",
      rows: [
        { name: "Characters", value: 39 },
        { name: "Before", value: 17 },
      ],
    },
  ]);
});

test("base64 encodes UTF-8 text", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.tool("base64", { action: "encode", values: { input: "héllo" } }), [
    { type: "code", text: "aMOpbGxv" },
  ]);
});

test("uuid generates as many v4 ids as asked (a snapshot without the varying ids)", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  const blocks = await ext.tool("uuid", { action: "generate", values: { count: 2 } });
  assert.deepEqual(snapshotOf(blocks), [{ type: "code", text: "[uuid]\n[uuid]" }]);
  const ids = (blocks[0] as { text: string }).text.split("\n");
  assert.notEqual(ids[0], ids[1]);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test("hash gives SHA-256 of the text", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.tool("hash", { action: "hash", values: { text: "abc" } }), [
    {
      type: "table",
      rows: [{ name: "Text (3 bytes)", value: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" }],
    },
  ]);
});

test("timestamp reads epoch seconds in the person's time zone", async (t) => {
  const ext = await loadExtension(".", { timeZone: "Europe/Paris" });
  t.after(() => ext.dispose());
  const [status, table] = await ext.tool("timestamp", { action: "convert", values: { input: "1700000000" } });
  assert.deepEqual(status, { type: "status", text: "Read as epoch seconds", tone: "neutral" });
  const rows = Object.fromEntries(
    (table as { rows: { name: string; value: unknown }[] }).rows.map((r) => [r.name, r.value]),
  );
  assert.equal(rows["UTC (ISO 8601)"], "2023-11-14T22:13:20.000Z");
  assert.equal(rows.Day, "Tuesday");
  assert.match(String(rows.Local), /^2023-11-14 23:13:20 /);
});

test("jwt says why a token is not one", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.tool("jwt", { values: { token: "nope" } }), [
    { type: "status", text: "Not a JWT: it has 1 part, a JWT has 3 separated by dots", tone: "critical" },
  ]);
});
