import { describe, expect, it } from "vitest";
import { SseParser } from "./sse.js";

describe("SseParser", () => {
  it("reads events split across chunks, with ids, names and retry", () => {
    const parser = new SseParser();
    expect(parser.push("retry: 1000\n\nid: 7\nevent: blip\nda")).toEqual([]);
    expect(parser.push('ta: {"a":1}\n\n: heartbeat\n\nid: 8\ndata: x\ndata: y\r\n\r\n')).toEqual([
      { id: "7", event: "blip", data: '{"a":1}' },
      { id: "8", event: "message", data: "x\ny" },
    ]);
    expect(parser.lastId).toBe("8");
    expect(parser.retryMs).toBe(1000);
  });
});
