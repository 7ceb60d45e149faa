/**
 * The fake app as a bare sandbox's ForwardedCalls (svckit validate): blips through the SDK's
 * processing with a seq per blip, host ops answered by the one FakeHost, every line inert.
 */
import { describe, expect, it } from "vitest";
import { FakeForwardedCalls } from "./fake-forwarded-calls.js";

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    out: { info: (line: string) => void lines.push(line), warn: (line: string) => void lines.push(`! ${line}`) },
  };
}

describe("FakeForwardedCalls", () => {
  it("stamps and cuts an emitted blip, and counts seq per blip", async () => {
    const { lines, out } = recorder();
    const host = new FakeForwardedCalls("com.example.x", out, { formatJson: (v) => JSON.stringify(v) });
    const blip = {
      key: "k",
      title: "K",
      layout: "stat",
      data: { value: 1 },
      facts: [1, 2, 3, 4, 5].map((n) => ({ label: `F${n}`, value: n })),
    };
    await host.forward("emit", { blip });
    await host.forward("emit", { blip });
    expect(host.emitted.map((e) => e.ok && (e.payload as { seq: number }).seq)).toEqual([1, 2]);
    expect(lines).toContain("  cut to the limits: facts");
    expect(host.problems).toEqual([]);
  });

  it("a blip the app would drop is a problem, naming the field", async () => {
    const { out } = recorder();
    const host = new FakeForwardedCalls("com.example.x", out);
    await host.forward("emit", { blip: { key: "k", title: 3, layout: "stat", data: { value: 1 } } });
    expect(host.problems).toHaveLength(1);
    expect(host.problems[0]).toMatch(/^emit com\.example\.x\/k: DROPPED: "title" /);
  });

  it("answers host ops with the fake app, and prints the extension's strings inert", async () => {
    const { lines, out } = recorder();
    const host = new FakeForwardedCalls("com.example.x", out, { secrets: { apiKey: "k-1" } });
    await expect(host.forward("secrets.get", { name: "apiKey" })).resolves.toEqual({ value: "k-1" });
    await host.forward("log", { level: "info", message: "Done\u001b]0;pwned\u0007 a\u202eb" });
    await host.forward("notify", { title: "Done", body: "api v42" });
    expect(lines).toEqual(["log [info] Done\\u{1b}]0;pwned\\u{7} a\\u{202e}b", "notify: Done — api v42"]);
    expect(host.app.notifications).toEqual([{ title: "Done", body: "api v42" }]);
  });

  it("refuses what the app refuses, in the runtime's words: a notify title with a control character is never shown", async () => {
    const { lines, out } = recorder();
    const host = new FakeForwardedCalls("com.example.x", out);
    await expect(host.forward("notify", { title: "Done\u001b]0;pwned\u0007", body: "a\u202eb" })).rejects.toThrow(
      'ctx.notify: "title" should not contain U+001B (a control or bidi character; found at 4); "body" should not contain U+202E (a control or bidi character; found at 1)',
    );
    expect(lines).toEqual([]);
    expect(host.app.notifications).toEqual([]);
  });
});
