/**
 * The ops of CHECKED_AT_CALL keep no stack of the call in the guest, which is only right if every
 * refusal the caller can cause is thrown at the call itself: here, for each op, a bad argument is
 * refused synchronously (the error's stack holds the calling function, and nothing reaches the
 * runtime), and a refusal that arrives later still rejects with its message.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Sandbox } from "../sandbox.js";
import { optionsFor, recorder, UPDATE } from "../sandbox.fixtures.js";
import { CHECKED_AT_CALL, type CheckedAtCall } from "./checked-at-call.js";
import { createRouter } from "./op-router.js";
import { InvocationOwners } from "./invocation-owners.js";
import { createCapabilities } from "../capabilities/index.js";

const opened: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(opened.map((sandbox) => sandbox.dispose()));
});

/** A call each op refuses at once, as the guest writes it, and the refusal it names. */
const BAD_CALL: Record<CheckedAtCall, { call: string; message: string }> = {
  "storage.get": { call: `ctx.storage.get("")`, message: 'storage.get: "key" should not be empty' },
  "storage.delete": {
    call: `ctx.storage.delete("k".repeat(257))`,
    message: 'storage.delete: "key" should be at most 256 characters long',
  },
  "secrets.get": {
    call: `ctx.secrets.get("api key")`,
    message: 'secrets.get: "name" should be 1–64 characters from A–Z a–z 0–9 . _ -',
  },
  "secrets.delete": {
    call: `ctx.secrets.delete("x".repeat(65))`,
    message: 'secrets.delete: "name" should be 1–64 characters from A–Z a–z 0–9 . _ -',
  },
};

async function run(body: string, answers = recorder()) {
  const code = `module.exports = { async update(ctx) { ${body} } };`;
  const sandbox = await Sandbox.create(optionsFor(code), answers);
  opened.push(sandbox);
  await sandbox.load();
  return { result: await sandbox.invoke(UPDATE), calls: answers.calls };
}

describe("the ops checked in full at the call", () => {
  it.each(CHECKED_AT_CALL)("%s refuses a bad argument at the call, with the caller's stack", async (op) => {
    const { call, message } = BAD_CALL[op];
    const { result, calls } = await run(`
      await null; // the stack after a resumption holds only the extension's frames
      function callingLine() { return ${call}; }
      try { await callingLine(); return "no refusal"; } catch (error) { return { message: error.message, stack: error.stack }; }
    `);
    const refused = result as { message: string; stack: string };
    expect(refused.message).toContain(message);
    expect(refused.stack).toMatch(/^ {4}at callingLine \(/m);
    expect(calls.filter((c) => c.op !== "log")).toEqual([]);
  });

  it("take an argument at its limit: a 256-character storage key, a 64-character secret name", async () => {
    const { result, calls } = await run(`
      await ctx.storage.delete("k".repeat(256));
      return [await ctx.storage.get("k".repeat(256)), await ctx.secrets.get("x".repeat(64))];
    `);
    expect(result).toEqual([null, null]);
    expect(calls.filter((c) => c.op !== "log")).toEqual([{ op: "secrets.get", args: { name: "x".repeat(64) } }]);
  });

  it("still reject with the runtime's message when the call fails later", async () => {
    const answers = recorder();
    answers.forwarded.forward = async () => {
      throw new Error("no secret store available: install and unlock gnome-keyring");
    };
    const { result } = await run(
      `try { await ctx.secrets.get("apiKey"); return "no refusal"; } catch (error) { return error.message; }`,
      answers,
    );
    expect(result).toBe("no secret store available: install and unlock gnome-keyring");
  });

  it("a call refused at once is never adopted by the invocation (a stream of bad calls leaves nothing)", () => {
    const owners = new InvocationOwners();
    const router = createRouter({
      capabilities: createCapabilities(),
      owners,
      forwarded: { forward: async () => null },
    } as unknown as Parameters<typeof createRouter>[0]);
    owners.begin(1);
    owners.within(1, () => {
      for (let id = 1; id <= 100; id++) {
        expect(() => router.async(id % 2 ? "secrets.get" : "storage.get", { name: "a b", key: "" }, id)).toThrow();
      }
    });
    for (let id = 1; id <= 100; id++) expect(owners.release(id)).toBeUndefined();
    // A call that starts is adopted, so the slice that answers it runs for its invocation.
    owners.within(1, () => void router.async("secrets.get", { name: "apiKey" }, 101));
    expect(owners.release(101)).toBe(1);
  });
});
