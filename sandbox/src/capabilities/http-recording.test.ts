/**
 * The recording's own rules, hop by hop: what is matched (method, URL, body, after the same
 * redaction as when recorded), repeated requests, bytes that are not text, secrets in URLs.
 * The network here is a function answering like a server would; the sandbox end to end is in
 * replay.test.ts.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Response } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type { FetchHop } from "./options.js";
import { HttpRecording } from "./http-recording.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function hop(url: string, method = "GET", body?: string): FetchHop {
  return {
    url,
    method,
    headers: [["authorization", "Bearer k-12345"]],
    body: body === undefined ? undefined : Buffer.from(body),
    signal: new AbortController().signal,
  };
}

async function recorded(exchanges: [FetchHop, () => Response][], secrets: string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-recording-"));
  dirs.push(dir);
  const file = join(dir, "api.json");
  const recording = await HttpRecording.open(file, { mode: "record", secrets: () => secrets });
  for (const [request, answer] of exchanges) await recording.transport(request, async () => answer(), EXTENSION);
  await recording.save();
  return file;
}

const EXTENSION = "com.example.test";
/** The network a replay must never use, and the extension the hop is from. */
const OFFLINE = [() => Promise.reject(new Error("network")), EXTENSION] as const;

describe("HttpRecording", () => {
  it("matches method, URL and body; the same request again gets the next answer, then the last", async () => {
    const file = await recorded([
      [hop("https://api.example.com/n"), () => new Response("1")],
      [hop("https://api.example.com/n"), () => new Response("2")],
      [hop("https://api.example.com/n", "POST", '{"a":1}'), () => new Response("posted", { status: 201 })],
    ]);
    const replay = await HttpRecording.open(file, { mode: "replay" });
    const text = async (request: FetchHop) => (await replay.transport(request, ...OFFLINE)).text();
    expect(await text(hop("https://api.example.com/n"))).toBe("1");
    expect(await text(hop("https://api.example.com/n"))).toBe("2");
    expect(await text(hop("https://api.example.com/n"))).toBe("2");
    const posted = await replay.transport(hop("https://api.example.com/n", "POST", '{"a":1}'), ...OFFLINE);
    expect([posted.status, await posted.text()]).toEqual([201, "posted"]);
    await expect(replay.transport(hop("https://api.example.com/n", "POST", '{"a":2}'), ...OFFLINE)).rejects.toThrow(
      /^fetch: POST https:\/\/api\.example\.com\/n has no recorded response in .*api\.json; it holds: GET https:\/\/api\.example\.com\/n, POST https:\/\/api\.example\.com\/n\. Record it again/,
    );
    expect(replay.takeFailure()?.request).toBe("POST https://api.example.com/n");
    expect(replay.takeFailure()).toBeUndefined();
  });

  it("gives a hand-written answer with `when` only to a request carrying those headers, before the plain one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-recording-"));
    dirs.push(dir);
    const file = join(dir, "api.json");
    const answer = (status: number, body: string) => ({
      status,
      statusText: "",
      headers: [],
      body,
      bodyEncoding: "utf8",
    });
    const url = "https://api.example.com/n";
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        source: "written by hand",
        exchanges: [
          { method: "GET", url, response: answer(200, "fresh") },
          { method: "GET", url, when: { "if-none-match": '"v1"' }, response: answer(304, "") },
        ],
      }),
    );
    const replay = await HttpRecording.open(file, { mode: "replay" });
    const status = async (headers: [string, string][]) =>
      (await replay.transport({ ...hop(url), headers }, () => Promise.reject(new Error("network")), "test.ext")).status;
    expect(await status([])).toBe(200);
    expect(await status([["If-None-Match", '"v1"']])).toBe(304);
    expect(await status([["If-None-Match", '"v0"']])).toBe(200);
    expect(await status([["If-None-Match", '"v1"']])).toBe(304);
    expect(replay.served.map((answer) => answer.status)).toEqual([200, 304, 200, 304]);
  });

  it("replays a hand-written failure with the network's code on its cause, served as status 0", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-recording-"));
    dirs.push(dir);
    const file = join(dir, "api.json");
    const url = "https://api.example.com/n";
    await writeFile(
      file,
      JSON.stringify({ version: 1, exchanges: [{ method: "GET", url, failure: "connect ECONNREFUSED 10.0.0.1:443" }] }),
    );
    const replay = await HttpRecording.open(file, { mode: "replay" });
    const failed = replay.transport(hop(url), () => Promise.reject(new Error("network")), "test.ext");
    await expect(failed).rejects.toThrow(new TypeError("fetch failed"));
    await expect(failed).rejects.toHaveProperty("cause.code", "ECONNREFUSED");
    await expect(failed).rejects.toHaveProperty("cause.message", "connect ECONNREFUSED 10.0.0.1:443");
    expect(replay.served).toEqual([{ method: "GET", url, status: 0 }]);
    expect(replay.takeFailure()).toBeUndefined();
  });

  it("keeps bytes that are not text as base64, and gives them back exactly", async () => {
    const bytes = Buffer.from([0, 255, 128, 10, 200]);
    const file = await recorded([[hop("https://cdn.example.com/x.bin"), () => new Response(bytes)]]);
    expect(JSON.parse(await readFile(file, "utf8")).exchanges[0].response).toMatchObject({
      bodyEncoding: "base64",
      body: bytes.toString("base64"),
    });
    const replay = await HttpRecording.open(file, { mode: "replay" });
    const answer = await replay.transport(hop("https://cdn.example.com/x.bin"), ...OFFLINE);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
  });

  it("a secret in the URL or a body is written as [secret], and matched the same way", async () => {
    const secret = "k-12345";
    const file = await recorded(
      [
        [
          hop(`https://api.example.com/q?key=${secret}`, "POST", `{"token":"${secret}"}`),
          () => new Response(`{"echo":"${secret}"}`, { headers: { "x-token": secret, "set-cookie": "s=1" } }),
        ],
      ],
      [secret],
    );
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(secret);
    expect(text).not.toContain("authorization");
    expect(text).not.toContain("set-cookie");
    expect(JSON.parse(text).exchanges[0]).toMatchObject({
      url: "https://api.example.com/q?key=[secret]",
      body: '{"token":"[secret]"}',
      response: { body: '{"echo":"[secret]"}', headers: expect.arrayContaining([["x-token", "[secret]"]]) },
    });
    const replay = await HttpRecording.open(file, { mode: "replay", secrets: () => [secret] });
    const answer = await replay.transport(
      hop(`https://api.example.com/q?key=${secret}`, "POST", `{"token":"${secret}"}`),
      ...OFFLINE,
    );
    expect(answer.status).toBe(200);
  });

  it("a recording written by hand keeps its source when recorded again, and replays with it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-recording-"));
    dirs.push(dir);
    const file = join(dir, "api.json");
    const source = "https://api.example.com/docs#usage (the documented example)";
    await writeFile(file, JSON.stringify({ version: 1, source, exchanges: [] }));
    const replay = await HttpRecording.open(file, { mode: "replay" });
    expect(replay.mode).toBe("replay");
    const again = await HttpRecording.open(file, { mode: "record" });
    await again.transport(hop("https://api.example.com/n"), async () => new Response("1"), "test.ext");
    await again.save();
    const written = JSON.parse(await readFile(file, "utf8")) as { source?: string; exchanges: unknown[] };
    expect([written.source, written.exchanges.length]).toEqual([source, 1]);
    // A new file has no source to keep: the key is left out.
    const fresh = await recorded([[hop("https://api.example.com/n"), () => new Response("1")]]);
    expect(Object.keys(JSON.parse(await readFile(fresh, "utf8")) as object)).toEqual(["version", "exchanges"]);
  });

  it("a request that got no answer is recorded as its failure and replayed as the same failure", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-recording-"));
    dirs.push(dir);
    const file = join(dir, "offline.json");
    const recording = await HttpRecording.open(file, { mode: "record", secrets: () => ["k-12345"] });
    const offline = new TypeError("fetch failed", { cause: new Error("getaddrinfo ENOTFOUND k-12345.example.com") });
    await expect(
      recording.transport(hop("https://api.example.com/n"), () => Promise.reject(offline), "test.ext"),
    ).rejects.toBe(offline);
    await recording.save();
    const written = JSON.parse(await readFile(file, "utf8")) as { exchanges: unknown[] };
    expect(written.exchanges).toEqual([
      { method: "GET", url: "https://api.example.com/n", failure: "getaddrinfo ENOTFOUND [secret].example.com" },
    ]);
    const replay = await HttpRecording.open(file, { mode: "replay" });
    const failed = await replay
      .transport(hop("https://api.example.com/n"), () => Promise.reject(new Error("network")), "test.ext")
      .then(
        () => undefined,
        (error: unknown) => error as TypeError,
      );
    expect([failed?.name, failed?.message, (failed?.cause as Error).message]).toEqual([
      "TypeError",
      "fetch failed",
      "getaddrinfo ENOTFOUND [secret].example.com",
    ]);
    // A failure is an answer the recording holds, not a missing one: the test is not failed for it.
    expect(replay.takeFailure()).toBeUndefined();
  });

  it("a file that is not a recording says so", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-recording-"));
    dirs.push(dir);
    const file = join(dir, "bad.json");
    await writeFile(file, "{}");
    await expect(HttpRecording.open(file, { mode: "replay" })).rejects.toThrow(
      `${file} is not a recording of version 1; record it again with svckit test --record`,
    );
  });
});
