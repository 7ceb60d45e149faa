import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CONNECT_ACTION, connectionBlip, probe, problemOf, type Problem } from "./connection.js";
import { processBlipInput } from "../processing/index.js";

const NOW = Date.parse("2025-03-01T09:30:00.000Z");

// A real loopback service answering with the status and headers the path asks for.
let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const status = Number(req.url?.slice(1).split("?")[0]) || 200;
    if (req.url?.includes("limit")) res.setHeader("retry-after", "120");
    res.statusCode = status;
    res.end(JSON.stringify({ status }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("problemOf", () => {
  it("names each kind of status", () => {
    expect(problemOf(401)).toEqual({ kind: "signed-out", message: "Signed out", status: 401 });
    expect(problemOf(403)).toEqual({ kind: "forbidden", message: "No access", status: 403 });
    expect(problemOf(404).kind).toBe("not-found");
    expect(problemOf(429)).toEqual({ kind: "rate-limited", message: "Rate limited", status: 429 });
    expect(problemOf(503)).toEqual({ kind: "unavailable", message: "Service unavailable (503)", status: 503 });
    expect(problemOf(418)).toEqual({ kind: "failed", message: "Request failed (418)", status: 418 });
  });
  it("reads a 403 with no calls left as rate limited, with the wait", () => {
    const headers = { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(NOW / 1000 + 300) };
    expect(problemOf(403, headers, NOW)).toEqual({
      kind: "rate-limited",
      message: "Rate limited",
      status: 403,
      retryAfter: 300,
    });
  });
});

describe("probe", () => {
  it("passes an ok response through", async () => {
    const result = await probe(fetch(`${base}/200`));
    expect(result.ok).toBe(true);
    if (result.ok) expect(await result.value.json()).toEqual({ status: 200 });
  });
  it("reads a failed response's status and Retry-After", async () => {
    expect(await probe(() => fetch(`${base}/401`))).toEqual({ ok: false, problem: problemOf(401) });
    expect(await probe(fetch(`${base}/429?limit`), NOW)).toEqual({
      ok: false,
      problem: { kind: "rate-limited", message: "Rate limited", status: 429, retryAfter: 120 },
    });
  });
  it("calls a refused connection offline", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await probe(fetch(`http://127.0.0.1:${port}/`))).toEqual({
      ok: false,
      problem: { kind: "offline", message: "No connection" },
    });
  });
  it("calls a fetch the sandbox refused not allowed by the manifest, never No connection", async () => {
    // The sandbox's own wording (sandbox/src/capabilities/denial.ts formatDenial), as the guest's TypeError carries it.
    const denied = new TypeError(
      'fetch to api.example.com denied: "api.example.com" is not in permissions.network (add "api.example.com" to svc.permissions.network in package.json)',
    );
    const res = await probe(Promise.reject(denied), 0);
    expect(res).toEqual({
      ok: false,
      problem: { kind: "denied", message: "Not allowed by the manifest", host: "api.example.com" },
    });
    expect(connectionBlip("c", (res as { problem: Problem }).problem, { title: "Deploys", now: 0 })).toMatchObject({
      state: "failure",
      data: {
        value: { type: "text", value: "Not allowed by the manifest" },
        label: "Add api.example.com to permissions.network",
      },
    });
  });
  it("offers Sign in only to an extension whose manifest has a sign-in", () => {
    const signedOut = connectionBlip("inbox", problemOf(401), { title: "GitHub", now: 0 });
    const stamp = { extensionId: "com.example.x", seq: 1, emittedAt: "2030-01-01T00:00:00.000Z" };
    const withSignIn = processBlipInput(signedOut, { ...stamp, signIn: true });
    const without = processBlipInput(signedOut, { ...stamp, signIn: false });
    expect(withSignIn.ok && withSignIn.payload.actions).toEqual([CONNECT_ACTION]);
    expect(without.ok && without.payload.actions).toEqual([]);
    // The words match what the person can do: no "Sign in" without the button.
    expect(withSignIn.ok && withSignIn.payload.data).toEqual({
      value: { type: "text", value: "Signed out" },
      label: "Sign in to continue",
    });
    expect(without.ok && without.payload.data).toEqual({
      value: { type: "text", value: "Signed out" },
      label: "Check the extension's settings",
    });
    // An author's own label stays as written.
    const own = processBlipInput(
      { ...signedOut, data: { ...signedOut.data, label: "Paste a token in Settings" } },
      { ...stamp, signIn: false },
    );
    expect(own.ok && own.payload.data).toMatchObject({ label: "Paste a token in Settings" });
    // Other actions stay.
    const open = { id: "open", title: "Open" };
    const both = processBlipInput({ ...signedOut, actions: [CONNECT_ACTION, open] }, { ...stamp, signIn: false });
    expect(both.ok && both.payload.actions).toEqual([open]);
  });
  it("reads errors that carry a status, timeouts and anything else", async () => {
    const httpError = Object.assign(new Error("Bad credentials"), { status: 401 });
    expect(await probe(Promise.reject(httpError))).toEqual({ ok: false, problem: problemOf(401) });
    const timeout = Object.assign(new Error("The operation timed out"), { name: "TimeoutError" });
    expect(await probe(Promise.reject(timeout))).toEqual({
      ok: false,
      problem: { kind: "offline", message: "Timed out" },
    });
    expect(await probe(async () => JSON.parse("{"))).toMatchObject({ ok: false, problem: { kind: "failed" } });
    expect(await probe(Promise.resolve(42))).toEqual({ ok: true, value: 42 });
  });
});

describe("connectionBlip", () => {
  const valid = (blip: unknown) => processBlipInput(blip, { extensionId: "com.example.x", seq: 1 }).ok;
  it("shows a sign-in problem with the Sign in button", () => {
    const blip = connectionBlip("inbox", problemOf(401), { title: "GitHub" });
    expect(blip).toEqual({
      key: "inbox",
      title: "GitHub",
      icon: "exclamationmark.triangle",
      state: "failure",
      actions: [CONNECT_ACTION],
      layout: "stat",
      data: { value: { type: "text", value: "Signed out" }, label: "Sign in to continue" },
    });
    expect(valid(blip)).toBe(true);
  });
  it("shows a passing problem as a warning, with when it tries again", () => {
    const blip = connectionBlip(
      "inbox",
      { kind: "rate-limited", message: "Rate limited", status: 429, retryAfter: 300 },
      { title: "GitHub", now: NOW },
    );
    expect(blip).toMatchObject({ state: "warning", data: { label: "Trying again in 5m" } });
    expect(blip).not.toHaveProperty("actions");
    expect(valid(blip)).toBe(true);
    const offline = connectionBlip("inbox", { kind: "offline", message: "No connection" }, { title: "GitHub" });
    expect(offline).toMatchObject({
      icon: "wifi.slash",
      state: "warning",
      data: { label: "Trying again on the next run" },
    });
  });
  it("takes the author's own buttons", () => {
    const actions = [{ id: "settings", title: "Settings" }];
    expect(connectionBlip("k", problemOf(401), { title: "T", actions }).actions).toBe(actions);
  });
});
