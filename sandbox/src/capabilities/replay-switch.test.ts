/**
 * The test replay switch (SVC_TEST_REPLAY): a listed extension's fetches are answered from its
 * recording, after the fence checked each hop, and never reach the network; other extensions
 * are untouched; an unreadable value fails every fetch instead of falling back to the network.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCapabilities, formatRecording, jsonExchange, replayTransport } from "./index.js";
import { replayFiles } from "../test-switches.js";
import type { FetchResult } from "./fetch-result.js";
import type { Resolver } from "./address-guard.js";
import { createTestContext, type TestContext } from "./test-context.js";

const dir = mkdtempSync(join(tmpdir(), "svc-replay-"));
const RECORDING = join(dir, "weather.json");
/** No name resolves: anything that reached for the network would fail with ENOTFOUND, not answer. */
const resolve: Resolver = async (host) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};
const ID = "app.svc.weather";
const env = { SVC_TEST_REPLAY: JSON.stringify({ [ID]: RECORDING }) };

let contexts: TestContext[] = [];
afterEach(() => {
  for (const t of contexts) t.cleanup();
  contexts = [];
});
function context(id: string, network: string[]): TestContext {
  const t = createTestContext({ network }, id);
  contexts.push(t);
  return t;
}

beforeAll(() => {
  writeFileSync(
    RECORDING,
    formatRecording([
      jsonExchange("GET", "https://api.example.com/now", { temp: 21 }),
      {
        method: "GET",
        url: "https://api.example.com/moved",
        response: {
          status: 302,
          statusText: "Found",
          headers: [["location", "https://evil.example/"]],
          body: "",
          bodyEncoding: "utf8",
        },
      },
    ]),
  );
});

describe("replayFiles", () => {
  it("is off when unset or empty, and reads an object of absolute paths", () => {
    expect(replayFiles({})).toBeUndefined();
    expect(replayFiles({ SVC_TEST_REPLAY: "" })).toBeUndefined();
    expect(replayFiles(env)).toEqual(new Map([[ID, RECORDING]]));
  });

  it("names what is wrong with an unreadable value", () => {
    const usage = 'write it as {"<extension id>": "/absolute/path/recording.json"}';
    expect(() => replayFiles({ SVC_TEST_REPLAY: "{" })).toThrow(/^SVC_TEST_REPLAY is not JSON \(.+\): write it as/);
    expect(() => replayFiles({ SVC_TEST_REPLAY: "[]" })).toThrow(`SVC_TEST_REPLAY should be a JSON object: ${usage}`);
    expect(() => replayFiles({ SVC_TEST_REPLAY: '{"a.b.c":"rel/x.json"}' })).toThrow(
      `SVC_TEST_REPLAY: the recording of "a.b.c" should be an absolute path: ${usage}`,
    );
  });
});

describe("replayTransport behind the fence", () => {
  const caps = createCapabilities({ resolve, transport: replayTransport(env) });
  const fetchOp = (args: object, t: TestContext) => caps.async.fetch(args, t.cx) as Promise<FetchResult>;

  it("answers a listed extension's fetch from its recording", async () => {
    const t = context(ID, ["api.example.com"]);
    const answer = await fetchOp({ requestId: 1, url: "https://api.example.com/now" }, t);
    expect([
      answer.status,
      Buffer.from(answer.body, answer.bodyEncoding === "utf8" ? "utf8" : "base64").toString(),
    ]).toEqual([200, '{"temp":21}']);
  });

  it("still checks every hop first: a host outside permissions.network is denied, recorded or not", async () => {
    const t = context(ID, ["api.example.com"]);
    await expect(fetchOp({ requestId: 1, url: "https://other.example/now" }, t)).rejects.toThrow(
      'fetch to other.example denied: "other.example" is not in permissions.network',
    );
    await expect(fetchOp({ requestId: 2, url: "https://api.example.com/moved" }, t)).rejects.toThrow(
      'fetch to evil.example denied: "evil.example" is not in permissions.network',
    );
    expect(t.denials).toHaveLength(2);
  });

  it("never reaches the network for a request the recording lacks", async () => {
    const t = context(ID, ["api.example.com"]);
    await expect(fetchOp({ requestId: 1, url: "https://api.example.com/later" }, t)).rejects.toThrow(
      `fetch: GET https://api.example.com/later has no recorded response in ${RECORDING}; it holds: GET https://api.example.com/now, GET https://api.example.com/moved. Record it again against the real API: svckit test --record`,
    );
  });

  it("leaves an extension it does not list on the network (here: a name that does not resolve)", async () => {
    const t = context("app.svc.other", ["api.example.com"]);
    await expect(fetchOp({ requestId: 1, url: "https://api.example.com/now" }, t)).rejects.toThrow(/ENOTFOUND/);
  });

  it("fails every fetch, never the network, when the switch's value is unreadable", async () => {
    const broken = createCapabilities({ resolve, transport: replayTransport({ SVC_TEST_REPLAY: "[]" }) });
    const t = context("app.svc.other", ["api.example.com"]);
    await expect(broken.async.fetch({ requestId: 1, url: "https://api.example.com/now" }, t.cx)).rejects.toThrow(
      'fetch: refused: SVC_TEST_REPLAY should be a JSON object: write it as {"<extension id>": "/absolute/path/recording.json"}',
    );
  });
});
