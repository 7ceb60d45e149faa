import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../../test/host-http/harness.js";
import { titleFromId } from "./hook-state.js";
import { runHook } from "./run.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function hook(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runHook(
    argv,
    { stdout: (l) => out.push(l), stderr: (l) => err.push(l) },
    { env: { SVC_HOME: h.dir } },
  );
  return { code, out, err };
}

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
