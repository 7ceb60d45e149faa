/**
 * One contract for every implementation of `ForwardedCalls` (the ops a guest's `ctx` forwards out
 * of its sandbox): svc-runtime's forwarder, speaking JSON-RPC to an app (the test kit's fake app
 * answering its `host.*` requests), and the test kit's `FakeForwardedCalls`, which `svckit
 * validate` runs against. Each op gets a good call and a bad one; both implementations must
 * answer them alike, to the character of each error. The arguments first pass the sandbox's own
 * check (bridge/op-table.ts), as they do on their way out of a guest.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Preference } from "@svc/api";
import { Connection } from "@svc/runtime";
import type { ForwardedCalls, ForwardedOp } from "@svc/sandbox";
import { FakeForwardedCalls, FakeHost, type FakeHostOptions } from "@svc/testkit";
import { BlipSide } from "../../runtime/src/blips.js";
import { forward } from "../../runtime/src/forwarder.js";
import { ReplyBook } from "../../runtime/src/replies.js";
import { SeqStore } from "../../runtime/src/seq-store.js";
import { checkForwardedArgs } from "../../sandbox/src/bridge/forwarded-args.js";
import { answerHostCalls } from "../../testkit/src/host-requests.js";

const ID = "com.example.contract";
const WAITING_REPLY = "r-1";
const units: Preference = {
  type: "dropdown",
  name: "units",
  title: "Units",
  data: [
    { title: "Metric", value: "metric" },
    { title: "Imperial", value: "imperial" },
  ],
} as Preference;

/** The app both implementations answer as: one sign-in, one secret, working hours, one option. */
function appOptions(): FakeHostOptions {
  return {
    extensionId: ID,
    title: "Contract",
    providers: ["github"],
    preferences: [units],
    secrets: { apiKey: "k-1" },
    signIns: [{ token: "gho_test", account: "octo", label: "Work", id: "conn-1" }],
    workingHours: { start: 540, end: 1020, weekdaysOnly: true },
    now: () => 1_767_225_600_000,
  };
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** svc-runtime's forwarder, its `host.*` requests crossing a JSON-RPC connection to the app. */
function runtimeForwarder(): ForwardedCalls {
  let app: Connection | undefined;
  const runtime = new Connection(
    { write: (message) => app!.handleFrame({ kind: "line", text: JSON.stringify(message) }) },
    { note: () => {} },
  );
  app = new Connection(
    { write: (message) => runtime.handleFrame({ kind: "line", text: JSON.stringify(message) }) },
    { note: () => {} },
  );
  answerHostCalls(app, new FakeHost(appOptions()));
  const dataDir = mkdtempSync(join(tmpdir(), "svc-contract-"));
  folders.push(dataDir);
  const blips = new BlipSide({
    extensionId: ID,
    connection: runtime,
    seqs: SeqStore.open(dataDir),
    now: () => 1_767_225_600_000,
    log: () => {},
  });
  const replies = new ReplyBook();
  replies.expect(WAITING_REPLY);
  const target = { extensionId: ID, connection: runtime, blips, replies, hostCallTimeoutMs: 5_000 };
  return { forward: (op, args) => forward(target, op, args) };
}

/** The test kit's fake app as a bare sandbox's ForwardedCalls (svckit validate). */
function fakeForwarder(): ForwardedCalls {
  const fake = new FakeForwardedCalls(ID, { info: () => {}, warn: () => {} }, appOptions());
  fake.replies.expect(WAITING_REPLY);
  return fake;
}

const IMPLEMENTATIONS: Record<string, () => ForwardedCalls> = {
  "svc-runtime": runtimeForwarder,
  FakeForwardedCalls: fakeForwarder,
};

type Outcome = { ok: unknown } | { error: string };

async function outcome(calls: ForwardedCalls, op: ForwardedOp, args: object): Promise<Outcome> {
  try {
    return { ok: await calls.forward(op, checkForwardedArgs(op, args)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const blip = { key: "web", title: "Web", layout: "stat", data: { value: 3 } };

/**
 * Each forwarded op (a Record over ForwardedOp: an op added to the table without a case here
 * does not compile), a good call and a bad one, and what the good one answers.
 */
const CASES: { [Op in ForwardedOp]: { good: object; answers: unknown; bad: object; refusal: string | RegExp | null } } =
  {
    // A blip the app cannot show is dropped (and reported), never the guest's exception.
    emit: { good: { blip }, answers: null, bad: { blip: { ...blip, title: 3 } }, refusal: null },
    end: {
      good: { key: "web", state: "success", dismissAfter: 5 },
      answers: null,
      bad: { key: "web", state: "exploded" },
      refusal: /^ctx\.end: "state" /,
    },
    remove: { good: { key: "web" }, answers: null, bad: { key: "" }, refusal: /^ctx\.remove: "key" / },
    respond: {
      good: { replyId: WAITING_REPLY, body: { ok: true }, status: 201 },
      answers: null,
      bad: { replyId: "r-9", body: null },
      refusal: 'ctx.respond: no webhook request is waiting for reply "r-9" (each event.replyId can be answered once)',
    },
    // The sandbox already refuses every bad log line (op-table.ts); what passes is passed on.
    log: {
      good: { level: "info", message: "hello" },
      answers: null,
      bad: { level: "warn", message: "\u001b[2J" },
      refusal: null,
    },
    openURL: {
      good: { url: "https://example.com/x" },
      answers: {},
      bad: { url: `https://example.com/${"x".repeat(8192)}` },
      refusal: /^ctx\.openURL: "url" /,
    },
    notify: {
      good: { title: "Deployed", body: "api v42" },
      answers: {},
      bad: { title: "\u001b[2J" },
      refusal: 'ctx.notify: "title" should not contain U+001B (a control or bidi character; found at 0)',
    },
    "secrets.get": {
      good: { name: "apiKey" },
      answers: { value: "k-1" },
      bad: { name: "bad name!" },
      // The sandbox's own check refuses it before either implementation sees it (op-table.ts).
      refusal: 'secrets.get: "name" should be 1–64 characters from A–Z a–z 0–9 . _ -',
    },
    "secrets.set": {
      good: { name: "apiKey", value: "s3cret" },
      answers: {},
      bad: { name: "big", value: "v".repeat(16385) },
      refusal: 'ctx.secrets.set: "value" should be at most 16384 bytes',
    },
    "secrets.delete": {
      good: { name: "apiKey" },
      answers: {},
      bad: { name: "" },
      refusal: 'secrets.delete: "name" should be 1–64 characters from A–Z a–z 0–9 . _ -',
    },
    "preferences.set": {
      good: { name: "units", value: "imperial" },
      answers: {},
      bad: { name: "colour", value: "red" },
      refusal: 'ctx.setPreference: "colour" is not one of this extension\'s preferences',
    },
    "oauth.connect": {
      good: { provider: "github" },
      answers: {},
      bad: { provider: "gitlab" },
      refusal: `${ID} has no sign-in named "gitlab"; declared: github`,
    },
    "oauth.connections": {
      good: {},
      answers: {
        connections: [
          {
            id: "conn-1",
            account: "octo",
            label: "Work",
            connectedAt: "2026-01-01T00:00:00.000Z",
            needsReconnect: false,
          },
        ],
      },
      bad: { provider: "gitlab" },
      refusal: `${ID} has no sign-in named "gitlab"; declared: github`,
    },
    "oauth.token": {
      good: { provider: "github" },
      answers: {
        token: "gho_test",
        connection: {
          id: "conn-1",
          account: "octo",
          label: "Work",
          connectedAt: "2026-01-01T00:00:00.000Z",
          needsReconnect: false,
        },
      },
      bad: { provider: "gitlab" },
      refusal: `${ID} has no sign-in named "gitlab"; declared: github`,
    },
    "oauth.describe": {
      good: { connection: "conn-1", account: "me@example.com", label: "Home" },
      answers: {
        connection: {
          id: "conn-1",
          account: "me@example.com",
          label: "Home",
          connectedAt: "2026-01-01T00:00:00.000Z",
          needsReconnect: false,
        },
      },
      bad: { connection: "conn-9", account: "me", label: "x" },
      refusal: 'Contract has no connection "conn-9"',
    },
    "oauth.invalidate": {
      good: { connection: "conn-1" },
      answers: {},
      bad: { connection: "conn-9" },
      refusal: 'Contract has no connection "conn-9"',
    },
    "oauth.disconnect": {
      good: { connection: "conn-1" },
      answers: {},
      bad: { provider: "gitlab" },
      refusal: `${ID} has no sign-in named "gitlab"; declared: github`,
    },
    // No arguments to get wrong: the bad call tries to speak for another extension, and is ignored.
    workingHours: {
      good: {},
      answers: { start: 540, end: 1020, weekdaysOnly: true },
      bad: { extensionId: "com.example.other" },
      refusal: null,
    },
  };

describe("the ForwardedCalls contract: svc-runtime and the test kit's fake app answer every forwarded op alike", () => {
  for (const [op, { good, answers, bad, refusal }] of Object.entries(CASES) as [
    ForwardedOp,
    (typeof CASES)[ForwardedOp],
  ][]) {
    it(`${op}: a good call and a bad one`, async () => {
      const outcomes: Record<string, { good: Outcome; bad: Outcome }> = {};
      for (const [name, make] of Object.entries(IMPLEMENTATIONS)) {
        const calls = make();
        outcomes[name] = { good: await outcome(calls, op, good), bad: await outcome(calls, op, bad) };
      }
      const [runtime, fake] = Object.values(outcomes);
      expect(runtime.good).toEqual({ ok: answers });
      if (refusal === null) expect(runtime.bad).toHaveProperty("ok");
      else if (typeof refusal === "string") expect(runtime.bad).toEqual({ error: refusal });
      else expect((runtime.bad as { error?: string }).error).toMatch(refusal);
      expect(fake).toEqual(runtime);
    });
  }
});
