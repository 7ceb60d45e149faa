/**
 * The kit's face, end to end against a real built extension (fixtures/ticker): the real sandbox
 * and runtime processing, the fake host, the manual clock, the schedule, actions, events, tools.
 */
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatRecording, jsonExchange, loadExtension, type TestExtension } from "./index.js";
import { builtFixture, removeFixtures } from "./kit.fixtures.js";

let dir: string;
const open: TestExtension[] = [];
beforeAll(async () => {
  dir = await builtFixture("ticker");
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((ext) => ext.dispose()));
});
afterAll(() => removeFixtures());

async function load(options: Parameters<typeof loadExtension>[1] = {}): Promise<TestExtension> {
  const ext = await loadExtension(dir, options);
  open.push(ext);
  return ext;
}

describe("loadExtension", () => {
  it("runs update() in the sandbox: blips stamped by the runtime, Date from the test's clock", async () => {
    const ext = await load({ now: "2025-03-01T09:30:00Z" });
    await expect(ext.run()).resolves.toEqual({ nextRunAfter: 30 });
    expect(ext.blips).toHaveLength(1);
    expect(ext.blip("clock")).toMatchObject({
      id: "com.example.ticker/clock",
      v: 1,
      seq: 1,
      emittedAt: "2025-03-01T09:30:00.000Z",
      layout: "stat",
      data: { value: { type: "text", value: "2025-03-01T09:30:00.000Z" }, label: "run 1 (manual) signed out" },
    });
    // The runtime's cut: 3 actions fit the limit of 4, all kept.
    expect((ext.blip("clock") as { actions: unknown[] }).actions).toHaveLength(3);
    await expect(ext.storage.get("runs")).resolves.toBe(1);
    expect(ext.statuses.map((s) => s.status)).toEqual(["loaded", "running", "idle"]);
    expect(ext.statuses[2]).toMatchObject({ heapUsed: expect.any(Number), cpuMs: expect.any(Number) });
  });

  it("an unknown preference is refused with the declared names", async () => {
    await expect(loadExtension(dir, { preferences: { colour: "red" } })).rejects.toThrow(
      'preference "colour" is not declared in package.json (svc.preferences: apiUrl, apiToken, units)',
    );
  });

  it("a missing bundle says to build first", async () => {
    await expect(loadExtension(`${dir}/src`)).rejects.toThrow(/package\.json/);
  });

  it("a bundle that throws while loading fails the load with its message", async () => {
    const broken = await builtFixture("ticker");
    await writeFile(join(broken, "dist", "index.js"), 'throw new Error("boom at load");');
    await expect(loadExtension(broken)).rejects.toThrow("com.example.ticker could not be loaded: boom at load");
  });

  it("update() throwing rejects run() with the extension's message", async () => {
    const ext = await load({ preferences: { apiUrl: "not a url" } });
    await expect(ext.run()).rejects.toThrow('Request: "not a url/count" is not a valid absolute URL');
    // A failed run waits the interval, as in the app.
    expect(ext.nextRunAt).toBe(ext.clock.now() + 5 * 60_000);
  });

  it("setPreference changes an option as Settings does, then update() runs with trigger preferences", async () => {
    const ext = await load();
    await ext.run();
    await expect(ext.setPreference("units", "imperial")).resolves.toEqual({});
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 2 (preferences) signed out" });
    await expect(ext.setPreference("colour", "red")).rejects.toThrow(
      'preference "colour" is not declared in package.json (svc.preferences: apiUrl, apiToken, units)',
    );
  });

  it("a url option the test sets is granted as the person's would be: its origin only", async () => {
    const granted = await builtFixture("ticker");
    const manifest = JSON.parse(await readFile(join(granted, "package.json"), "utf8")) as {
      svc: { preferences: { type: string }[]; permissions: { network: string[] } };
    };
    manifest.svc.preferences[0]!.type = "url";
    manifest.svc.permissions.network = ["github.com"]; // nothing that admits api.example.com
    await writeFile(join(granted, "package.json"), JSON.stringify(manifest));
    await writeFile(
      join(granted, "api.json"),
      formatRecording([jsonExchange("GET", "https://api.example.com/count", { count: 7 })]),
    );
    const ext = await loadExtension(granted, {
      preferences: { apiUrl: "https://api.example.com" },
      recording: "api.json",
    });
    open.push(ext);
    await ext.run();
    expect(ext.blip("count")?.data).toMatchObject({ value: 7 });
    expect(ext.denials).toEqual([]);
    // Changed in Settings: the new origin is admitted (then the recording has no answer for it).
    await expect(ext.setPreference("apiUrl", "https://other.example.com")).rejects.toThrow(
      /^fetch: GET https:\/\/other\.example\.com\/count has no recorded response/,
    );
    expect(ext.denials).toEqual([]);
    // The same address in a text option grants nothing: the fence refuses it.
    const plain = await load({
      preferences: { apiUrl: "https://api.example.com" },
      recording: join(granted, "api.json"),
    });
    await expect(plain.run()).rejects.toThrow(
      'fetch to api.example.com denied: "api.example.com" is not in permissions.network',
    );
  });

  it("seeds storage and sign-ins", async () => {
    const ext = await load({ storage: { runs: 41 }, signIns: [{ token: "gho_test", account: "octo" }] });
    await ext.run("launch");
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 42 (launch) signed in" });
  });
});

describe("the clock", () => {
  it("advance fires the guest's timers at their moment, and the schedule runs update() with trigger interval", async () => {
    const ext = await load({ now: "2025-03-01T09:00:00Z" });
    await ext.run("launch"); // nextRunAfter 30 s; a 90 s timer
    expect(ext.nextRunAt).toBe(Date.parse("2025-03-01T09:00:30Z"));
    await ext.clock.advance("29s");
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 1 (launch) signed out" });
    await ext.clock.advance("1s");
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 2 (interval) signed out" });
    // Run 2 returned nothing: the next wait is the manifest's 5m.
    expect(ext.nextRunAt).toBe(Date.parse("2025-03-01T09:05:30Z"));
    expect(ext.blip("timer")).toBeUndefined();
    await ext.clock.advance("1m");
    expect(ext.blip("timer")).toMatchObject({
      data: { value: { type: "text", value: "2025-03-01T09:01:30.000Z" } },
      emittedAt: "2025-03-01T09:01:30.000Z",
    });
    await ext.clock.advance("4m");
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 3 (interval) signed out" });
    expect(ext.clock.iso()).toBe("2025-03-01T09:05:30.000Z");
  });

  it("an ended blip is dismissed when the clock passes its dismissAfter", async () => {
    const ext = await load({ now: "2025-03-01T09:00:00Z" });
    await ext.run();
    await ext.run(); // the next run is now the interval's, 5m away
    await ext.action("clock", "done");
    expect(ext.ended("clock")).toEqual({
      at: "2025-03-01T09:00:00.000Z",
      state: "success",
      dismissAt: "2025-03-01T09:01:00.000Z",
    });
    expect(ext.blip("clock")?.state).toBe("success");
    await ext.clock.advance("59s");
    expect(ext.blip("clock")).toBeDefined();
    await ext.clock.advance("1s");
    expect(ext.blip("clock")).toBeUndefined();
  });

  it("advanceTo moves to a moment, never backwards", async () => {
    const ext = await load({ now: "2025-03-01T09:00:00Z" });
    await ext.clock.advanceTo("2025-03-01T10:00:00Z");
    expect(ext.clock.iso()).toBe("2025-03-01T10:00:00.000Z");
    expect(() => ext.clock.advanceTo("2025-03-01T09:59:59Z")).toThrow(
      "the clock only moves forward: 2025-03-01T09:59:59.000Z is before now (2025-03-01T10:00:00.000Z)",
    );
  });

  it("a span it cannot read is refused", async () => {
    const ext = await load();
    expect(() => ext.clock.advance("soon")).toThrow('"soon" is not a span of time');
  });
});

describe("actions, events, the fake host", () => {
  it("records notify; setPreference is saved and update() runs with trigger preferences", async () => {
    const ext = await load();
    await ext.run();
    await expect(ext.action("clock", "later")).resolves.toEqual({ emitted: {} });
    expect(ext.host.notifications).toEqual([{ title: "Later", body: "pressed on clock" }]);
    await ext.action("com.example.ticker/clock", "units");
    expect(ext.host.preferenceChanges).toEqual([{ name: "units", value: "imperial" }]);
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 2 (preferences) signed out" });
  });

  it("signIn gives the extension a token and runs update() as after a sign-in", async () => {
    const ext = await load();
    await ext.run();
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 1 (manual) signed out" });
    await ext.signIn({ token: "gho_new", account: "octo" });
    expect(ext.blip("clock")?.data).toMatchObject({ label: "run 2 (preferences) signed in" });
    await expect(ext.storage.all()).resolves.toEqual({ runs: 2 });
  });

  it("a webhook event with a reply gets the extension's answer", async () => {
    const ext = await load();
    const answer = await ext.event({ type: "webhook", body: { items: ["a", "b", "c", "d", "e", "f"] }, reply: true });
    expect(answer).toEqual({ response: { status: 200, body: { got: 6 } } });
    // The runtime cut the list to 5 items.
    expect((ext.blip("inbox")?.data as { items: unknown[] }).items).toHaveLength(5);
  });

  it("a webhook cuts a wait longer than the interval back to it", async () => {
    const ext = await load({ now: "2025-03-01T09:00:00Z" });
    await ext.run();
    await ext.run(); // run 2: the 5m interval
    expect(ext.nextRunAt).toBe(Date.parse("2025-03-01T09:05:00Z"));
    await ext.event({ type: "webhook", body: { items: [] } });
    expect(ext.nextRunAt).toBe(Date.parse("2025-03-01T09:05:00Z"));
  });
});

describe("tools", () => {
  it("runs a tool with normalized values and gives the blocks the app would draw", async () => {
    const ext = await load();
    await expect(ext.tool("echo", { values: { input: "ab", times: 9 } })).resolves.toEqual([
      { type: "status", text: "Said", tone: "positive" },
      { type: "code", text: "ababab" },
      { type: "table", rows: [{ name: "Length", value: 2 }] },
    ]);
    expect(ext.tools.map((t) => t.id)).toEqual(["echo"]);
  });

  it("a call waiting on a timer finishes when the clock passes it", async () => {
    const ext = await load();
    const running = ext.tool("echo", { action: "wait" });
    await ext.clock.advance("1999ms");
    let done = false;
    void running.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    await ext.clock.advance("1ms");
    await expect(running).resolves.toEqual([{ type: "status", text: "waited 2000 ms", tone: "neutral" }]);
  });

  it("a tool that throws fails with its message", async () => {
    const ext = await load();
    await expect(ext.tool("echo", { action: "fail" })).rejects.toThrow("echo was told to fail");
  });

  it("a drop gives the message, the outputs inside the data folder (others dropped and logged) and the copied text", async () => {
    const ext = await load();
    const given = join(tmpdir(), `svc-testkit-drop-${process.pid}.txt`);
    await writeFile(given, "hello");
    const result = await ext.drop("echo", { action: "copy", files: [given] });
    expect(result.message).toBe("copied 1 file");
    expect(result.copiedText).toBe("hello");
    expect(result.outputs).toHaveLength(1);
    expect(result.outputs[0]).toMatch(/\/com\.example\.ticker\/copy\.txt$/);
    expect(ext.logs.some((l) => l.level === "warn" && l.message.includes("/etc/passwd"))).toBe(true);
  });

  it("an unknown tool names the ones there are", async () => {
    const ext = await load();
    await expect(ext.tool("nope")).rejects.toThrow('com.example.ticker has no tool "nope": its tools are "echo"');
  });
});
