/**
 * Web APIs of the prelude where web-platform-tests found them apart from Node (test/conformance):
 * Headers is a WebIDL (sequence or record) and iterates as a pair iterator, live; abort reasons
 * are DOMExceptions; TextDecoder decodes UTF-16 too. Expected values are Node 20's.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Sandbox } from "./sandbox.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

async function inGuest(body: string): Promise<unknown> {
  const sandbox = await Sandbox.create(optionsFor(`module.exports = { async update() { ${body} } };`), recorder());
  sandboxes.push(sandbox);
  await sandbox.load();
  return sandbox.invoke(UPDATE);
}

describe("guest Headers and AbortSignal as the web platform's", () => {
  it("Headers refuses null and numbers, takes a replaced iterator, and iterates live", async () => {
    const seen = await inGuest(`
      const refused = [null, 1].map((init) => { try { new Headers(init); return "made"; } catch (e) { return e.name; } });
      const custom = new Headers();
      custom[Symbol.iterator] = function* () { yield ["test", "yes"]; };
      const live = new Headers({ foo: "2", baz: "1", BAR: "0", quux: "3" });
      const keys = [];
      for (const [name] of live) { keys.push(name); if (name === "baz") live.append("abc", "-1"); }
      const iterator = new Headers().keys();
      const proto = Object.getPrototypeOf(iterator);
      const next = Object.getOwnPropertyDescriptor(proto, "next");
      return [refused, new Headers(custom).get("test"), keys,
        Object.getPrototypeOf(proto) === Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
        [next.enumerable, next.writable, next.configurable], Object.prototype.toString.call(iterator),
        Headers.prototype[Symbol.iterator] === Headers.prototype.entries];`);
    expect(seen).toEqual([
      ["TypeError", "TypeError"],
      "yes",
      ["bar", "baz", "baz", "foo", "quux"],
      true,
      [true, true, true],
      "[object Headers Iterator]",
      true,
    ]);
  });

  it("abort reasons are DOMExceptions: AbortError, and TimeoutError from AbortSignal.timeout", async () => {
    const seen = await inGuest(`
      const aborted = AbortSignal.abort().reason;
      const timedOut = await new Promise((resolve) => { const s = AbortSignal.timeout(1); s.onabort = () => resolve(s.reason); });
      return [aborted instanceof DOMException, aborted.name, aborted.message, aborted.code,
        timedOut instanceof DOMException, timedOut.name, timedOut.message, timedOut.code];`);
    expect(seen).toEqual([
      true,
      "AbortError",
      "This operation was aborted",
      20,
      true,
      "TimeoutError",
      "The operation was aborted due to timeout",
      23,
    ]);
  });

  it("TextDecoder decodes UTF-16LE and UTF-16BE, streamed a byte at a time, and names what it refuses", async () => {
    const seen = await inGuest(`
      const stream = (label, bytes) => { const d = new TextDecoder(label); let out = ""; for (const b of bytes) out += d.decode(new Uint8Array([b]), { stream: true }); return out + d.decode(); };
      let fatal, legacy;
      try { new TextDecoder("utf-16le", { fatal: true }).decode(new Uint8Array([0x00, 0xd8])); } catch (e) { fatal = [e.name, e.message]; }
      try { new TextDecoder("windows-1252"); } catch (e) { legacy = [e.name, e.message]; }
      return [
        [new TextDecoder("utf-16").encoding, new TextDecoder(" UTF-16BE\\n").encoding, new TextDecoder("utf-16le").encoding],
        stream("utf-16le", [0xff, 0xfe, 0x41, 0x00, 0x3d, 0xd8, 0xa9, 0xdc]),
        stream("utf-16be", [0x00, 0x41, 0xd8, 0x3d, 0xdc, 0xa9]),
        new TextDecoder("utf-16le").decode(new Uint8Array([0x41, 0x00, 0x00, 0xd8, 0x42])),
        new TextDecoder("utf-16be").decode(new Uint8Array([0xdc, 0x00, 0x00, 0x41])),
        fatal,
        legacy,
      ];`);
    expect(seen).toEqual([
      ["utf-16le", "utf-16be", "utf-16le"],
      "A\u{1F4A9}",
      "A\u{1F4A9}",
      "A\uFFFD",
      "\uFFFDA",
      ["TypeError", "The encoded data was not valid for encoding utf-16le"],
      ["RangeError", 'The encoding "windows-1252" is not supported (utf-8, utf-16le and utf-16be are)'],
    ]);
  });
});
