import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../../test/host-http/harness.js";
import type { HookDelivery } from "../http/index.js";
import { titleFromId } from "./hook-state.js";
import { runHook } from "./run.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function hook(...argv: string[]) {
  return hookWithStdin("", ...argv);
}

async function hookWithStdin(stdin: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runHook(
    argv,
    { stdout: (l) => out.push(l), stderr: (l) => err.push(l) },
    { env: { SVC_HOME: h.dir }, readStdin: async () => stdin },
  );
  return { code, out, err };
}

/** Resolves with the next delivery the server hands the hook target. */
function nextDelivery(): Promise<HookDelivery> {
  return new Promise((resolve) => {
    h.hooks.onDeliver = (delivery) => {
      h.hooks.onDeliver = undefined;
      resolve(delivery);
    };
  });
}

describe("send", () => {
  it("hands stdin's JSON to the extension and prints its answer", async () => {
    const delivered = nextDelivery();
    const running = hookWithStdin('{"tool_name":"Bash"}', "send", "com.example.ci", "--wait", "30");
    const delivery = await delivered;
    expect(delivery).toMatchObject({ extensionId: "com.example.ci", body: { tool_name: "Bash" } });
    h.server.respond({ replyId: delivery.replyId!, status: 200, body: { decision: "allow" } });
    expect(await running).toEqual({ code: 0, out: ['{"decision":"allow"}'], err: [] });
  });

  it("prints the --otherwise JSON when the wait runs out (204)", async () => {
    const result = await hook("send", "com.example.ci", "{}", "--wait", "0", "--otherwise", '{"decision":"ask"}');
    expect(result).toEqual({ code: 0, out: ['{"decision":"ask"}'], err: [] });
  });

  it("prints nothing without --otherwise when no answer comes, and nothing at all without --wait", async () => {
    expect(await hook("send", "com.example.ci", "{}", "--wait", "0")).toEqual({ code: 0, out: [], err: [] });
    const before = h.hooks.deliveries.length;
    expect(await hook("send", "com.example.ci", '{"n":1}')).toEqual({ code: 0, out: [], err: [] });
    expect(h.hooks.deliveries.slice(before)).toMatchObject([{ body: { n: 1 } }]);
    expect(h.hooks.deliveries[before].replyId).toBeUndefined();
  });

  it("prints the --otherwise JSON when svc refuses, with the reason on stderr", async () => {
    expect(await hook("send", "com.example.nobody", "{}", "--wait", "5", "--otherwise", "null")).toEqual({
      code: 0,
      out: ["null"],
      err: ['svc-hook: svc refused it (404): no extension "com.example.nobody"'],
    });
  });

  it("says what is missing when stdin holds no JSON", async () => {
    expect(await hookWithStdin("", "send", "com.example.ci", "--wait", "1", "--otherwise", "{}")).toEqual({
      code: 0,
      out: ["{}"],
      err: ["svc-hook: send needs a JSON body: give it as an argument or on stdin (svc-hook --help)"],
    });
    expect((await hookWithStdin("nope", "send", "com.example.ci")).err).toEqual([
      `svc-hook: the body on stdin is not JSON (${(() => {
        try {
          JSON.parse("nope");
        } catch (error) {
          return (error as Error).message;
        }
      })()}) (svc-hook --help)`,
    ]);
  });
});

describe("runHook in process", () => {
  it("steps a blip it never started, titled from its id", async () => {
    expect(await hook("step", "deploy-api", "0.5", "Half way")).toEqual({ code: 0, out: [], err: [] });
    expect(h.store.get("webhook/deploy-api")!.payload).toMatchObject({
      title: "Deploy api",
      layout: "progress",
      data: { fraction: 0.5, step: "Half way" },
    });
  });

  it("asks for --id when the title cannot make one, without failing", async () => {
    expect(await hook("start", "!!!")).toEqual({
      code: 0,
      out: [],
      err: ['svc-hook: the title "!!!" has no letter or digit to make an id from: add --id <id> (svc-hook --help)'],
    });
    expect((await hook("start", "!!!", "--id", "bang")).out).toEqual(["webhook/bang"]);
  });

  it("passes the server's refusal on as one line", async () => {
    const result = await hook("end", "bang", "exploded");
    expect(result.code).toBe(0);
    expect(result.err).toEqual([
      'svc-hook: svc refused it (400): invalid end: "state" should be one of idle, running, waiting, success, warning, failure, cancelled',
    ]);
  });
});

describe("titleFromId", () => {
  it("makes a readable title from the key", () => {
    expect(titleFromId("webhook/deploy-api")).toBe("Deploy api");
    expect(titleFromId("ci/run_tests")).toBe("Run tests");
  });
});
