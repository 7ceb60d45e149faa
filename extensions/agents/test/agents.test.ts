/**
 * Agent Sessions with @svc/testkit (`svckit test`): hook inputs as each agent documents them
 * (test/hook-inputs/*.json, each naming its source) delivered as webhook events, held ones with a
 * reply, and the Approve/Deny buttons pressed as the notch presses them.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { loadExtension, type TestExtension } from "@svc/testkit";
import { readAgentEvent } from "../src/agent-events.js";

type Inputs = Record<string, Record<string, unknown>>;
const read = (name: string): Inputs => JSON.parse(readFileSync(`test/hook-inputs/${name}.json`, "utf8")) as Inputs;
const claude = read("claude");
const gemini = read("gemini");
const codex = read("codex");

const CLAUDE_KEY = "claude-9f2c1d7e-5a4b-4c3d-8e9f-0a1b2c3d4e5f";
const GEMINI_KEY = "gemini-c0ffee00-1111-2222-3333-444455556666";

async function start(t: { after(fn: () => unknown): void }): Promise<TestExtension> {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  await ext.run("launch");
  return ext;
}

const send = (ext: TestExtension, body: unknown, reply = false) => ext.event({ type: "webhook", body, reply });

test("before any agent calls: one idle blip that says what to set", async (t) => {
  const ext = await start(t);
  const setup = ext.blip("setup");
  assert.equal(setup?.state, "idle");
  assert.deepEqual(setup?.data, {
    value: "No agent has called yet",
    label: "Add svc-hook to your agent's hooks (see this extension's README)",
  });
  assert.equal(ext.blips.length, 1);
});

test("a Claude Code session: running with its prompt, then done; the setup blip goes", async (t) => {
  const ext = await start(t);
  await send(ext, claude.SessionStart);
  await send(ext, claude.UserPromptSubmit);
  assert.equal(ext.blip("setup"), undefined);
  const running = ext.blip(CLAUDE_KEY);
  assert.equal(running?.layout, "session");
  assert.equal(running?.title, "Claude Code · web");
  assert.equal(running?.subtitle, "/home/ann/code/web");
  assert.equal(running?.state, "running");
  assert.deepEqual(running?.data, {
    startedAt: "2025-01-06T09:00:00.000Z",
    step: "Working on: Fix the flaky login test",
  });
  await ext.clock.advance("3m");
  await send(ext, claude.Stop);
  assert.equal(ext.blip(CLAUDE_KEY)?.state, "success");
  assert.equal((ext.blip(CLAUDE_KEY)?.data as { step: string }).step, "Done");
  assert.equal(ext.blip(CLAUDE_KEY)?.actions, undefined);
});

test("a held PreToolUse waits for you; Approve answers it with Claude Code's allow", async (t) => {
  const ext = await start(t);
  await send(ext, claude.SessionStart);
  const { response } = await send(ext, claude.PreToolUse, true);
  assert.equal(response, undefined, "held: nothing answered before the person");
  const asking = ext.blip(CLAUDE_KEY);
  assert.equal(asking?.state, "waiting");
  assert.equal((asking?.data as { step: string }).step, "Wants to use Bash: npm test -- login");
  assert.deepEqual(
    asking?.actions?.map((a) => [a.id, a.role]),
    [
      ["approve", "primary"],
      ["deny", "destructive"],
    ],
  );
  await ext.action(CLAUDE_KEY, "approve");
  assert.deepEqual(ext.responses, [
    {
      replyId: "reply-1",
      status: 200,
      body: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          permissionDecisionReason: "Approved in svc",
        },
      },
    },
  ]);
  assert.equal(ext.blip(CLAUDE_KEY)?.state, "running");
  assert.equal((ext.blip(CLAUDE_KEY)?.data as { step: string }).step, "Approved: Bash");
  assert.equal(ext.blip(CLAUDE_KEY)?.actions, undefined);
});

test("Deny answers with Claude Code's deny and its reason", async (t) => {
  const ext = await start(t);
  await send(ext, claude.PreToolUse, true);
  await ext.action(CLAUDE_KEY, "deny");
  assert.deepEqual(
    ext.responses.map((r) => r.body),
    [
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "Denied in svc",
        },
      },
    ],
  );
});

test("no answer in time: the buttons go at the wait (50 s by default), nothing is answered, a late press says so", async (t) => {
  const ext = await start(t);
  await send(ext, claude.PreToolUse, true);
  await ext.clock.advance("49s");
  assert.equal(ext.blip(CLAUDE_KEY)?.actions?.length, 2, "still askable one second before the wait ends");
  await ext.clock.advance("1s");
  assert.equal(ext.blip(CLAUDE_KEY)?.actions, undefined);
  assert.equal(ext.blip(CLAUDE_KEY)?.state, "running");
  await ext.action(CLAUDE_KEY, "approve");
  assert.deepEqual(ext.responses, [], "never an answer after the wait: svc-hook printed its --otherwise (ask)");
  assert.deepEqual(ext.host.notifications.at(-1), {
    title: "Too late to answer here",
    body: "The agent asks in its own terminal now.",
  });
});

test("the agent asking in its own terminal (Notification) takes the notch's buttons away", async (t) => {
  const ext = await start(t);
  await send(ext, claude.PreToolUse, true);
  await send(ext, claude.Notification);
  const blip = ext.blip(CLAUDE_KEY);
  assert.equal(blip?.state, "waiting");
  assert.equal((blip?.data as { step: string }).step, "Claude needs your permission to use Bash");
  assert.equal(blip?.actions, undefined);
});

test("Gemini CLI's BeforeTool: Deny answers in Gemini's words", async (t) => {
  const ext = await start(t);
  await send(ext, gemini.BeforeTool, true);
  const blip = ext.blip(GEMINI_KEY);
  assert.equal(blip?.title, "Gemini CLI · api");
  assert.equal((blip?.data as { step: string }).step, "Wants to use run_shell_command: rm -rf build");
  await ext.action(GEMINI_KEY, "deny");
  assert.deepEqual(
    ext.responses.map((r) => r.body),
    [{ decision: "deny", reason: "Denied in svc" }],
  );
  await send(ext, gemini.AfterAgent);
  assert.equal((ext.blip(GEMINI_KEY)?.data as { step: string }).step, "Done: The build folder is gone.");
});

test("Codex's notify: a finished turn shows as done with its last message", async (t) => {
  const ext = await start(t);
  await send(ext, codex["agent-turn-complete"]);
  const blip = ext.blip("codex-b5f6c1d2-e3a4-4b5c-9d8e-7f6a5b4c3d2e");
  assert.equal(blip?.title, "Codex · cli");
  assert.equal(blip?.state, "success");
  assert.equal((blip?.data as { step: string }).step, "Done: Rename complete and verified `cargo build` succeeds.");
});

test("a waiting sender of something that is no agent's input gets {} at once, and nothing shows", async (t) => {
  const ext = await start(t);
  const { response } = await send(ext, { hello: "world" }, true);
  assert.deepEqual(response, { status: 200, body: {} });
  assert.deepEqual(
    ext.blips.map((b) => b.id),
    ["app.svc.agents/setup"],
  );
});

test("a held event svc does not decide (Stop sent with --wait) is answered at once with {}", async (t) => {
  const ext = await start(t);
  const { response } = await send(ext, claude.Stop, true);
  assert.deepEqual(response, { status: 200, body: {} });
});

test("a session ended goes; sessions quiet for 2 h are forgotten at the next run", async (t) => {
  const ext = await start(t);
  await send(ext, claude.SessionStart);
  await send(ext, gemini.BeforeTool);
  await ext.clock.advance("1h");
  await send(ext, claude.SessionEnd);
  assert.equal((ext.blip(CLAUDE_KEY)?.data as { step: string }).step, "Session ended");
  await ext.clock.advance("1h1m");
  await ext.run();
  assert.equal(ext.blip(GEMINI_KEY), undefined, "quiet for 2 h 1 m");
  assert.ok(ext.blip(CLAUDE_KEY), "heard 1 h 1 m ago");
});

test("a new launch clears approvals held before it (svc answered them when it stopped)", async (t) => {
  const ext = await start(t);
  await send(ext, claude.PreToolUse, true);
  await ext.run("launch");
  assert.equal(ext.blip(CLAUDE_KEY)?.actions, undefined);
});

test("whose input it is: Gemini's carries a timestamp and its own event names, Codex's a type", () => {
  assert.equal(
    readAgentEvent({ session_id: "s", hook_event_name: "SessionStart", source: "startup" })?.agent,
    "claude",
  );
  assert.equal(
    readAgentEvent({ session_id: "s", hook_event_name: "SessionStart", timestamp: "2025-01-06T09:00:00Z" })?.agent,
    "gemini",
  );
  assert.equal(readAgentEvent(gemini.BeforeTool)?.kind, "tool");
  assert.equal(readAgentEvent(codex["agent-turn-complete"])?.agent, "codex");
  assert.equal(readAgentEvent({ session_id: "s", hook_event_name: "PreCompact" }), undefined);
  assert.equal(readAgentEvent({ hook_event_name: "Stop" }), undefined, "no session id: nothing to show it on");
  assert.equal(readAgentEvent([1, 2]), undefined);
});

test("an event redraws only its own session (agents send one per tool call)", async (t) => {
  const ext = await start(t);
  await send(ext, claude.SessionStart);
  await send(ext, gemini.BeforeTool);
  const before = ext.updates.length;
  await send(ext, claude.PostToolUse);
  assert.deepEqual(
    ext.updates.slice(before).map((u) => u.id),
    [`app.svc.agents/${CLAUDE_KEY}`],
  );
  assert.equal((ext.blip(CLAUDE_KEY)?.data as { step: string }).step, "Used Bash: npm test -- login");
});
