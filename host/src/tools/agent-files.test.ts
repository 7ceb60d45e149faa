import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentFilesRequest } from "./agent-files-request.js";
import {
  AGENT_FILES_TIMEOUT_MS,
  AgentFiles,
  MAX_WAITING_AGENT_FILES,
  valuesText,
  type AgentFilesDeps,
} from "./agent-files.js";
import { ToolError } from "./tool-error.js";

const question = (n = 1) => ({
  agent: "claude-code 1.0",
  tool: "com.example.tools/read",
  toolTitle: "Read",
  extensionTitle: "Tool fixture",
  action: "read",
  actionTitle: "Read",
  files: Array.from({ length: n }, (_, i) => `/home/me/file-${i}.txt`),
  values: "{}",
});

function store(deps: Partial<AgentFilesDeps> = {}) {
  const published: AgentFilesRequest[][] = [];
  const log: string[] = [];
  const files = new AgentFiles({
    publish: (w) => published.push(w),
    viewers: () => 1,
    log: (_l, m) => log.push(m),
    ...deps,
  });
  return { files, published, log };
}

/** The refusal a promise ends with (its ToolError message), or "allowed". */
const outcome = (work: Promise<void>) =>
  work.then(
    () => "allowed",
    (error: unknown) => {
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).status).toBe(403);
      return (error as Error).message;
    },
  );

afterEach(() => {
  vi.useRealTimers();
});

describe("AgentFiles", () => {
  it("holds a request until the person allows it; the page gets the list before and after", async () => {
    const { files, published, log } = store();
    const asked = outcome(files.ask(question(2)));
    expect(files.list()).toHaveLength(1);
    const [request] = files.list();
    expect(request).toMatchObject({ ...question(2), id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });
    expect(request.expiresAt).toBeGreaterThan(Date.now() + AGENT_FILES_TIMEOUT_MS - 5_000);
    expect(published).toEqual([[request]]);
    expect(files.answer(request.id, true)).toBe(true);
    expect(await asked).toBe("allowed");
    expect(published.at(-1)).toEqual([]);
    expect(log).toEqual(["claude-code 1.0 asked for 2 files for com.example.tools/read: allowed"]);
    // Answered once: a second answer is refused, and changes nothing.
    expect(files.answer(request.id, false)).toBe(false);
  });

  it("a denial refuses the agent naming the tool and how many files", async () => {
    const { files } = store();
    const asked = outcome(files.ask(question(1)));
    files.answer(files.list()[0].id, false);
    expect(await asked).toBe("the person denied Read access to 1 file in svc's notch: the tool did not run");
    expect(files.list()).toEqual([]);
  });

  it("no answer within the timeout is a refusal saying so", async () => {
    vi.useFakeTimers();
    const { files, published } = store({ timeoutMs: 2_000 });
    const asked = outcome(files.ask(question()));
    vi.advanceTimersByTime(1_999);
    expect(files.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await asked).toBe(
      "the person did not answer within 2 s in svc's notch: Read did not run. Call again when they can answer",
    );
    expect(published.at(-1)).toEqual([]);
  });

  it("refuses at once when no page follows the feed: nobody could answer", async () => {
    const { files, published } = store({ viewers: () => 0 });
    expect(await outcome(files.ask(question()))).toBe(
      "no svc notch is open to ask the person: a file path from an agent is a read grant only once the person allows it there. Ask them to open svc, then call Read again",
    );
    expect(published).toEqual([]);
  });

  it(`holds ${MAX_WAITING_AGENT_FILES} requests at once (the limit) and refuses the one past it`, async () => {
    const { files } = store();
    const waiting = Array.from({ length: MAX_WAITING_AGENT_FILES }, () => outcome(files.ask(question())));
    expect(files.list()).toHaveLength(MAX_WAITING_AGENT_FILES);
    expect(await outcome(files.ask(question()))).toBe(
      `${MAX_WAITING_AGENT_FILES} requests for files already wait for the person's answer in svc's notch: wait for those, then call Read again`,
    );
    expect(files.list()).toHaveLength(MAX_WAITING_AGENT_FILES);
    // One answered: there is room for one more.
    files.answer(files.list()[0].id, true);
    const next = outcome(files.ask(question()));
    expect(files.list()).toHaveLength(MAX_WAITING_AGENT_FILES);
    files.dispose();
    expect(await Promise.all([...waiting, next])).toEqual([
      "allowed",
      ...Array(MAX_WAITING_AGENT_FILES).fill("svc is stopping: the person did not answer, and the tool did not run"),
    ]);
  });

  it("withdraws a request whose agent went away, and refuses everything once closed", async () => {
    const { files, published } = store();
    const gone = new AbortController();
    const asked = outcome(files.ask(question(), gone.signal));
    const { id } = files.list()[0];
    gone.abort();
    expect(await asked).toBe("the request was withdrawn before the person answered");
    expect(published.at(-1)).toEqual([]);
    expect(files.answer(id, true)).toBe(false);
    files.dispose();
    expect(await outcome(files.ask(question()))).toBe(
      "svc is stopping: the person was not asked, and the tool did not run",
    );
  });

  it("logs the agent's name inert (controls and bidi overrides made visible)", async () => {
    const { files, log } = store();
    const asked = outcome(files.ask({ ...question(), agent: "evil\u202Egnp.exe\n[svc] all good" }));
    files.answer(files.list()[0].id, false);
    await asked;
    expect(log[0]).not.toMatch(/[\u202E\n]/);
  });

  it("shows the call's other values as JSON, clipped to 500 characters", () => {
    expect(valuesText({ input: "hi", count: 3 })).toBe('{"input":"hi","count":3}');
    const long = valuesText({ input: "x".repeat(1000) });
    expect(long).toHaveLength(500);
    expect(long.endsWith("…")).toBe(true);
  });
});
