/**
 * Random and hostile lines on stdin: the runtime never dies, and never writes a byte to stdout
 * that is not a JSON-RPC line.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ExtensionAction,
  ExtensionEvent,
  ExtensionLoad,
  ExtensionRun,
  ExtensionUnload,
  Initialize,
  ToolDrop,
  ToolRun,
} from "@svc/runtime";
import { loadFixture, startRuntime } from "./harness/setup.js";

const METHODS = [
  Initialize,
  ExtensionLoad,
  ExtensionUnload,
  ExtensionRun,
  ExtensionEvent,
  ExtensionAction,
  ToolRun,
  ToolDrop,
].map((m) => m.method);

const encoder = new TextEncoder();

const hostileRequest = fc
  .record(
    {
      jsonrpc: fc.constantFrom<unknown>("2.0", "2.0", "2.0", "1.0", 2, null),
      // Integer ids stay out of 1…1e9, the range the harness numbers its own requests in: an answer
      // to a fuzz line must never be taken for the answer to the sentinel.
      id: fc.oneof(
        fc.integer({ max: 0 }),
        fc.string(),
        fc.constant(null),
        fc.double().filter((d) => !(Number.isInteger(d) && d >= 1 && d <= 1e9)),
        fc.object(),
      ),
      method: fc.oneof(fc.constantFrom(...METHODS), fc.string(), fc.integer()),
      params: fc.oneof(
        fc.anything(),
        fc.record({
          id: fc.oneof(fc.string(), fc.constantFrom("com.example.x", "../x", "")),
          trigger: fc.anything(),
          tool: fc.anything(),
          values: fc.anything(),
        }),
      ),
    },
    { requiredKeys: [] },
  )
  .map((message) => encoder.encode(JSON.stringify(message) + "\n"));

const deepNesting = fc
  .integer({ min: 1_000, max: 100_000 })
  .chain((depth) =>
    fc.constantFrom(
      "[".repeat(depth) + "]".repeat(depth),
      `{"jsonrpc":"2.0","id":1,"method":"extension.run","params":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`,
      `{"jsonrpc":"2.0","id":2,"method":"tool.run","params":{"id":"com.example.x","tool":"t","action":"a","values":{"v":${"[".repeat(depth)}${"]".repeat(depth)}}}}`,
      "[".repeat(depth),
    ),
  );

/** A multi-byte character cut short, then a newline. */
const partialUtf8 = fc.constantFrom("é", "€", "😀").chain((char) => {
  const bytes = encoder.encode(char);
  return fc
    .integer({ min: 1, max: bytes.length - 1 })
    .map((cut) => Uint8Array.from([...encoder.encode('{"a":"'), ...bytes.subarray(0, cut), 0x0a]));
});

/** Well-formed requests with hostile params, aimed at loaded extensions (so they reach the sandboxes). */
const aimed = fc
  .oneof(
    fc.record({
      method: fc.constant(ExtensionEvent.method),
      params: fc.record({
        id: fc.constant("com.example.y"),
        event: fc.oneof(
          fc.record({ type: fc.constant("webhook"), body: fc.anything(), receivedAt: fc.string() }),
          fc.record({ type: fc.constant("file"), paths: fc.array(fc.string()) }),
          fc.anything(),
        ),
        replyId: fc.option(fc.string(), { nil: undefined }),
      }),
    }),
    fc.record({
      method: fc.constant(ExtensionAction.method),
      params: fc.record({
        id: fc.constant("com.example.y"),
        blipId: fc.string().map((k) => `com.example.y/${k}`),
        actionId: fc.string(),
        input: fc.anything(),
        itemId: fc.anything(),
      }),
    }),
    fc.record({
      method: fc.constant(ToolRun.method),
      params: fc.record({
        id: fc.constant("com.example.x"),
        tool: fc.constantFrom("echo", "paths", "fail", "nope"),
        action: fc.string(),
        values: fc.dictionary(fc.string(), fc.anything()),
      }),
    }),
    fc.record({
      method: fc.constant(ToolDrop.method),
      params: fc.record({
        id: fc.constant("com.example.x"),
        tool: fc.constantFrom("paths", "badResult"),
        action: fc.constantFrom("shrink", "d", "x"),
        files: fc.array(fc.string()),
      }),
    }),
  )
  .chain((request) =>
    fc
      .integer({ min: 1e9 + 1, max: 2e9 })
      .map((id) => encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, ...request }) + "\n")),
  );

const line = fc.oneof(
  aimed,
  fc.string().map((s) => encoder.encode(s + "\n")),
  fc.string({ unit: "binary" }).map((s) => encoder.encode(s + "\n")),
  fc.jsonValue().map((v) => encoder.encode(JSON.stringify(v) + "\n")),
  fc.uint8Array({ maxLength: 4000 }),
  hostileRequest,
  deepNesting.map((s) => encoder.encode(s + "\n")),
  partialUtf8,
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => encoder.encode("x".repeat(n) + "\n")),
);

describe("hostile input", () => {
  it("never ends the process and keeps stdout pure JSON-RPC", async () => {
    const started = await startRuntime();
    const { runtime } = started;
    await loadFixture(started, "tools", "com.example.x");
    await loadFixture(started, "blips", "com.example.y");
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 25 }), async (lines) => {
        for (const bytes of lines) await runtime.writeRaw(bytes);
        // A lone newline ends whatever partial line the random bytes left open.
        await runtime.writeRaw("\n");
        const response = await runtime.request("sentinel.ping");
        expect(response.error?.code).toBe(-32601);
        expect(runtime.child.exitCode).toBeNull();
      }),
      { numRuns: 40 },
    );
    const lines = runtime.stdoutLines();
    expect(lines.length).toBeGreaterThan(40);
    // Hostile input is answered with the right error, never with an internal one.
    expect((lines as Array<{ error?: { code: number } }>).filter((m) => m.error?.code === -32603)).toEqual([]);
    for (const message of lines as Array<Record<string, unknown>>) {
      expect(message.jsonrpc).toBe("2.0");
      expect("result" in message || "error" in message || typeof message.method === "string").toBe(true);
    }
  }, 120_000);
});
