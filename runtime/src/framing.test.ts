import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { LineSplitter, NdjsonReader, NdjsonWriter, type Frame } from "./framing.js";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("LineSplitter", () => {
  it("splits lines across chunk boundaries", () => {
    const splitter = new LineSplitter(1024);
    expect(splitter.push(bytes('{"a":1}\n{"b"'))).toEqual([{ kind: "line", text: '{"a":1}' }]);
    expect(splitter.push(bytes(":2}\n"))).toEqual([{ kind: "line", text: '{"b":2}' }]);
  });

  it("drops a trailing carriage return and skips blank lines", () => {
    const splitter = new LineSplitter(1024);
    expect(splitter.push(bytes("x\r\n\n   \ny\n"))).toEqual([
      { kind: "line", text: "x" },
      { kind: "line", text: "y" },
    ]);
  });

  it("accepts a line of exactly the maximum length and discards one byte more", () => {
    const splitter = new LineSplitter(10);
    expect(splitter.push(bytes("0123456789\n"))).toEqual([{ kind: "line", text: "0123456789" }]);
    expect(splitter.push(bytes("0123456789A\nok\n"))).toEqual([
      { kind: "oversized", bytes: 11 },
      { kind: "line", text: "ok" },
    ]);
  });

  it("counts an oversized line fed in many chunks and recovers at its newline", () => {
    const splitter = new LineSplitter(8);
    const frames: Frame[] = [];
    for (let i = 0; i < 10; i++) frames.push(...splitter.push(bytes("abcde")));
    frames.push(...splitter.push(bytes("\nnext\n")));
    expect(frames).toEqual([
      { kind: "oversized", bytes: 50 },
      { kind: "line", text: "next" },
    ]);
  });

  it("keeps a multi-byte character cut between chunks", () => {
    const splitter = new LineSplitter(1024);
    const all = bytes('"é€😀"\n');
    const frames = [
      ...splitter.push(all.subarray(0, 3)),
      ...splitter.push(all.subarray(3, 7)),
      ...splitter.push(all.subarray(7)),
    ];
    expect(frames).toEqual([{ kind: "line", text: '"é€😀"' }]);
  });

  it("reports a line that is not UTF-8, including a character cut by the newline", () => {
    const splitter = new LineSplitter(1024);
    const cut = Buffer.concat([bytes('"a'), Buffer.from([0xe2, 0x82]), bytes("\n")]);
    expect(splitter.push(cut)).toEqual([{ kind: "not-utf8", bytes: 4 }]);
    expect(splitter.push(Buffer.from([0xff, 0xfe, 0x0a]))).toEqual([{ kind: "not-utf8", bytes: 2 }]);
  });

  it("hands on a last line without a newline when the input ends", () => {
    const splitter = new LineSplitter(1024);
    expect(splitter.push(bytes("tail"))).toEqual([]);
    expect(splitter.end()).toEqual([{ kind: "line", text: "tail" }]);
  });
});

describe("NdjsonReader and NdjsonWriter", () => {
  it("round-trip messages through a stream", async () => {
    const pipe = new PassThrough();
    const writer = new NdjsonWriter(pipe);
    const frames: Frame[] = [];
    const ended = new Promise<void>((resolve) => new NdjsonReader(pipe).listen((f) => frames.push(f), resolve));
    writer.write({ jsonrpc: "2.0", method: "log", params: { message: "a\nb \u2028 \ud800" } });
    writer.write({ n: 1 });
    pipe.end();
    await ended;
    expect(frames.map((f) => (f.kind === "line" ? JSON.parse(f.text) : f))).toEqual([
      { jsonrpc: "2.0", method: "log", params: { message: "a\nb \u2028 \ud800" } },
      { n: 1 },
    ]);
  });

  it("stops writing once the stream failed", () => {
    const pipe = new PassThrough();
    const writer = new NdjsonWriter(pipe);
    let closed = 0;
    writer.onClose(() => closed++);
    pipe.destroy(new Error("EPIPE"));
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(writer.closed).toBe(true);
        expect(closed).toBe(1);
        expect(() => writer.write({ x: 1 })).not.toThrow();
        resolve();
      }),
    );
  });
});
