/**
 * `POST /v1/given-files` on the real loopback server: where the desktop shell's main process
 * registers a file the person dropped and gets the handle the page holds. Every status, who may
 * register (the token holder; never a web page, a caller without the token, or an agent), and
 * the registry's limit through the route.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GivenFiles } from "../../host/src/tools/index.js";
import { startHarness, type Harness } from "./harness.js";

const LIMIT = 3;
let h: Harness;
let given: GivenFiles;
let dir: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "svc-given-route-")));
  await writeFile(join(dir, "deploys-1.2.0.svc"), "pk");
  await mkdir(join(dir, "folder"));
  given = new GivenFiles(LIMIT);
  h = await startHarness({ givenFiles: given });
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

const give = (body: unknown, headers?: Record<string, string>) =>
  h.call("POST", "/v1/given-files", { body, ...(headers ? { headers } : {}) });

describe("POST /v1/given-files", () => {
  it("200: registers an existing file and answers an opaque handle for its real path", async () => {
    const answer = await give({ path: join(dir, "deploys-1.2.0.svc") });
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(Object.keys(answer.json)).toEqual(["handle"]);
    expect(answer.json.handle).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(given.pathOf(answer.json.handle, "handle")).toBe(join(dir, "deploys-1.2.0.svc"));
  });

  it("400: a path that is missing, a folder or relative, or a body of another shape", async () => {
    expect(await give({ path: join(dir, "nope.svc") })).toMatchObject({
      status: 400,
      json: { error: `"path": ${join(dir, "nope.svc")} does not exist` },
    });
    expect(await give({ path: join(dir, "folder") })).toMatchObject({
      status: 400,
      json: { error: `"path": ${join(dir, "folder")} is not a file (folders and devices cannot be given to a tool)` },
    });
    expect(await give({ path: "deploys-1.2.0.svc" })).toMatchObject({
      status: 400,
      json: { error: '"path" should be the absolute path of a file' },
    });
    expect(await give({})).toMatchObject({
      status: 400,
      json: { error: '"path" should be the absolute path of a file' },
    });
    for (const body of [{ path: join(dir, "deploys-1.2.0.svc"), handle: "x" }, [join(dir, "deploys-1.2.0.svc")]]) {
      expect(await give(body)).toMatchObject({
        status: 400,
        json: { error: 'the body should be {"path": "<absolute path of the file>"}' },
      });
    }
  });

  it("401 without the token or with a wrong one: another program on loopback cannot grant a file", async () => {
    const before = given.size;
    expect((await give({ path: join(dir, "deploys-1.2.0.svc") }, { Authorization: "" })).status).toBe(401);
    expect(await give({ path: join(dir, "deploys-1.2.0.svc") }, { Authorization: "Bearer guessed" })).toMatchObject({
      status: 401,
      json: { error: expect.stringContaining("wrong bearer token") },
    });
    expect(given.size).toBe(before);
  });

  it("403 for a web page (Origin) and for an agent (Svc-Caller: agent); 400 for another caller value", async () => {
    const before = given.size;
    expect(await give({ path: join(dir, "deploys-1.2.0.svc") }, { Origin: "http://127.0.0.1:5555" })).toMatchObject({
      status: 403,
      json: { error: "requests from web pages (with an Origin header) are not allowed" },
    });
    expect(await give({ path: join(dir, "deploys-1.2.0.svc") }, { "Svc-Caller": "agent" })).toMatchObject({
      status: 403,
      json: {
        error:
          "a file path from an agent is not a read grant: only the person gives files, by dropping or choosing them in the notch",
      },
    });
    expect((await give({ path: join(dir, "deploys-1.2.0.svc") }, { "Svc-Caller": "person" })).status).toBe(400);
    expect(given.size).toBe(before);
  });

  it("405 for other methods, 415 without JSON, 413 past 1 MB", async () => {
    expect(await h.call("GET", "/v1/given-files")).toMatchObject({ status: 405, headers: { allow: "POST" } });
    expect(
      (await h.call("POST", "/v1/given-files", { rawBody: "path=/x", headers: { "Content-Type": "text/plain" } }))
        .status,
    ).toBe(415);
    expect((await give({ path: `/${"a".repeat(1_048_576)}` })).status).toBe(413);
  });

  it(`keeps ${LIMIT} handles (this registry's limit); one more forgets the oldest`, async () => {
    const fresh = new GivenFiles(LIMIT);
    const other = await startHarness({ givenFiles: fresh });
    try {
      const handles: string[] = [];
      for (let i = 0; i < LIMIT; i++)
        handles.push(
          (await other.call("POST", "/v1/given-files", { body: { path: join(dir, "deploys-1.2.0.svc") } })).json.handle,
        );
      expect(handles.map((handle) => fresh.pathOf(handle, "handle"))).toEqual(
        Array(LIMIT).fill(join(dir, "deploys-1.2.0.svc")),
      );
      expect(
        (await other.call("POST", "/v1/given-files", { body: { path: join(dir, "deploys-1.2.0.svc") } })).status,
      ).toBe(200);
      expect(() => fresh.pathOf(handles[0], "handle")).toThrow("this file is not known to svc any more");
      expect(fresh.pathOf(handles[1], "handle")).toBe(join(dir, "deploys-1.2.0.svc"));
    } finally {
      await other.close();
    }
  });

  it("is absent (404) from a server that keeps no given files", async () => {
    const bare = await startHarness();
    try {
      expect(
        (await bare.call("POST", "/v1/given-files", { body: { path: join(dir, "deploys-1.2.0.svc") } })).status,
      ).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
