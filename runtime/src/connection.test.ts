import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Connection } from "./connection.js";
import { ErrorCodes, ResponseError } from "./protocol/errors.js";
import { notification, request } from "./protocol/define.js";

const Echo = request(
  "echo",
  z.object({ text: z.string(), count: z.number().int().optional() }),
  z.object({ text: z.string() }),
);
const Fail = request("fail", z.object({}), z.object({}));
const Boom = request("boom", z.object({}), z.object({}));
const Ping = notification("ping", z.object({ n: z.number() }));
const Ask = request("ask", z.object({ q: z.string() }), z.object({ a: z.number() }));

function setup() {
  const sent: any[] = [];
  const notes: string[] = [];
  const connection = new Connection(
    { write: (m) => sent.push(JSON.parse(JSON.stringify(m))) },
    { note: (m) => notes.push(m), maxLineBytes: 100 },
  );
  connection.onRequest(Echo, ({ text }) => ({ text }));
  connection.onRequest(Fail, () => {
    throw new ResponseError(ErrorCodes.UnknownExtension, "no such extension");
  });
  connection.onRequest(Boom, () => {
    throw new Error("kaput");
  });
  const line = (text: string) => connection.handleFrame({ kind: "line", text });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { connection, sent, notes, line, settle };
}

describe("Connection: incoming", () => {
  it("answers a request with its handler's result", async () => {
    const { sent, line, settle } = setup();
    line('{"jsonrpc":"2.0","id":7,"method":"echo","params":{"text":"hi"}}');
    await settle();
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 7, result: { text: "hi" } }]);
  });

  it("answers -32700 to a line that is not JSON, and -32700 to bytes that are not UTF-8", () => {
    const { connection, sent, line } = setup();
    line("{nope");
    connection.handleFrame({ kind: "not-utf8", bytes: 3 });
    expect(sent.map((m) => [m.id, m.error.code])).toEqual([
      [null, -32700],
      [null, -32700],
    ]);
    expect(sent[0].error.message).toMatch(/^line is not JSON: /);
  });

  it("answers -32600 to JSON that is not a request: scalars, batches, wrong version, bad ids, no method", async () => {
    const { sent, line, settle } = setup();
    for (const text of [
      "42",
      '"x"',
      "null",
      "[]",
      '[{"jsonrpc":"2.0","id":1,"method":"echo"}]',
      '{"id":1,"method":"echo"}',
      '{"jsonrpc":"1.0","id":2,"method":"echo"}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}',
      '{"jsonrpc":"2.0","id":3,"method":5}',
      '{"jsonrpc":"2.0","id":4}',
    ]) {
      line(text);
    }
    await settle();
    expect(sent.map((m) => [m.id, m.error.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [1, -32600],
      [2, -32600],
      [null, -32600],
      [3, -32600],
      [4, -32600],
    ]);
    expect(sent[3].error.message).toBe("batches are not supported: send one JSON-RPC object per line");
  });

  it("answers -32601 to an unknown method", async () => {
    const { sent, line, settle } = setup();
    line('{"jsonrpc":"2.0","id":"a","method":"nope"}');
    await settle();
    expect(sent).toEqual([{ jsonrpc: "2.0", id: "a", error: { code: -32601, message: 'unknown method "nope"' } }]);
  });

  it("answers -32602 naming the path of the bad param", async () => {
    const { sent, line, settle } = setup();
    line('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"x","count":1.5}}');
    line('{"jsonrpc":"2.0","id":2,"method":"echo","params":[1]}');
    await settle();
    expect(sent[0].error.code).toBe(-32602);
    expect(sent[0].error.message).toMatch(/^invalid params for echo: "count" /);
    expect(sent[1].error).toEqual({ code: -32602, message: "invalid params for echo: params must be an object" });
  });

  it("sends a handler's ResponseError as is, and anything else as -32603 with a stderr note", async () => {
    const { sent, notes, line, settle } = setup();
    line('{"jsonrpc":"2.0","id":1,"method":"fail","params":{}}');
    line('{"jsonrpc":"2.0","id":2,"method":"boom"}');
    await settle();
    expect(sent[0]).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32001, message: "no such extension" } });
    expect(sent[1]).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "internal error: kaput" } });
    expect(notes.some((n) => n.includes("kaput"))).toBe(true);
  });

  it("answers -32009 to an oversized line, naming the limit", () => {
    const { connection, sent } = setup();
    connection.handleFrame({ kind: "oversized", bytes: 101 });
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32009, message: "line of 101 bytes discarded: a message may be at most 100 bytes" },
      },
    ]);
  });

  it("dispatches notifications without answering, and notes unknown ones", () => {
    const { connection, sent, notes, line } = setup();
    const got: number[] = [];
    connection.onNotification(Ping, ({ n }) => got.push(n));
    line('{"jsonrpc":"2.0","method":"ping","params":{"n":3}}');
    line('{"jsonrpc":"2.0","method":"ping","params":{"n":"x"}}');
    line('{"jsonrpc":"2.0","method":"other"}');
    expect(got).toEqual([3]);
    expect(sent).toEqual([]);
    expect(notes).toHaveLength(2);
  });

  it("lets beforeRequest refuse a request", async () => {
    const sent: any[] = [];
    const connection = new Connection(
      { write: (m) => sent.push(m) },
      {
        beforeRequest: (method) => {
          if (method !== "echo") throw new ResponseError(ErrorCodes.NotInitialized, "send initialize first");
        },
      },
    );
    connection.onRequest(Fail, () => ({}));
    connection.handleFrame({ kind: "line", text: '{"jsonrpc":"2.0","id":1,"method":"fail"}' });
    await new Promise((r) => setImmediate(r));
    expect(sent[0].error).toEqual({ code: -32008, message: "send initialize first" });
  });
});

describe("Connection: outgoing", () => {
  it("matches answers to requests by id and checks the result", async () => {
    const { connection, sent, line } = setup();
    const first = connection.sendRequest(Ask, { q: "a" });
    const second = connection.sendRequest(Ask, { q: "b" });
    const [a, b] = sent;
    expect(a).toMatchObject({ jsonrpc: "2.0", method: "ask", params: { q: "a" } });
    line(JSON.stringify({ jsonrpc: "2.0", id: b.id, result: { a: 2 } }));
    line(JSON.stringify({ jsonrpc: "2.0", id: a.id, error: { code: -32001, message: "who?" } }));
    await expect(second).resolves.toEqual({ a: 2 });
    await expect(first).rejects.toMatchObject({ name: "ResponseError", code: -32001, message: "who?" });
  });

  it("rejects a result of the wrong shape", async () => {
    const { connection, sent, line } = setup();
    const pending = connection.sendRequest(Ask, { q: "a" });
    line(JSON.stringify({ jsonrpc: "2.0", id: sent[0].id, result: { a: "two" } }));
    await expect(pending).rejects.toThrow(/^ask answered with an invalid result: "a" /);
  });

  it("ignores a response to an id it never sent, with a note", () => {
    const { sent, notes, line } = setup();
    line('{"jsonrpc":"2.0","id":999,"result":{}}');
    expect(sent).toEqual([]);
    expect(notes).toEqual(["ignored a response to unknown id 999"]);
  });

  it("times out a request nobody answers, and rejects pending ones on dispose", async () => {
    const { connection } = setup();
    await expect(connection.sendRequest(Ask, { q: "a" }, { timeoutMs: 20 })).rejects.toMatchObject({
      code: ErrorCodes.Timeout,
    });
    const pending = connection.sendRequest(Ask, { q: "b" });
    connection.dispose();
    await expect(pending).rejects.toThrow("ask: the connection closed");
  });

  it("refuses to send params that fail their own schema", async () => {
    const { connection, sent } = setup();
    await expect(connection.sendRequest(Ask, { q: 1 } as never)).rejects.toMatchObject({ code: -32602 });
    connection.sendNotification(Ping, { n: "x" } as never);
    expect(sent).toEqual([]);
  });
});
