/**
 * The author's statements kept in `revocations.json`, with real Ed25519 keys: each counts only
 * against the key that signed it, a revocation covers versions up to its `upTo`, a lost key
 * disowns only what it signed after its `after` (at the limit and one past it), and a lost-key
 * statement naming another key than its signer's counts for nothing.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatPublicKey, publicKeyOfSeed, signStatement, type SecretKey, type Statement } from "@svc/api/signing";
import { keepRevocation, lostKeyOf, revocationOf, revokedProblem, shownKey } from "./index.js";

const ID = "com.example.deploys";
function newKey(): SecretKey {
  const seed = randomBytes(32);
  return { seed, keyId: randomBytes(8), key: publicKeyOfSeed(seed) };
}
const line = (key: SecretKey) => formatPublicKey(key).split("\n")[1];

let support: string;
beforeEach(async () => {
  support = await mkdtemp(join(tmpdir(), "svc-revocations-"));
});
afterEach(() => rm(support, { recursive: true, force: true }));

async function keep(statement: Statement, signer: SecretKey): Promise<void> {
  const { json, minisig } = signStatement(statement, signer);
  await keepRevocation(support, statement.id, { json: json.toString("utf8"), minisig });
}

describe("revocations.json", () => {
  it("a lost key disowns what it signed after `after`: at the limit it loads, one patch past it does not", async () => {
    const lost = newKey();
    const next = newKey();
    await keep(
      { v: 1, kind: "lost", id: ID, from: line(lost), to: line(next), after: "1.0.0", reason: "stolen" },
      lost,
    );
    expect(await revocationOf(support, ID, "1.0.0", line(lost))).toBeUndefined();
    const past = await revocationOf(support, ID, "1.0.1", line(lost));
    expect(past).toMatchObject({ kind: "lost", after: "1.0.0" });
    expect(revokedProblem(past!, "1.0.1")).toBe(
      `not loaded: its author says the key that signed it, ${shownKey(line(lost))}, was lost after version 1.0.0 (this is 1.0.1), saying: "stolen". Its data is kept; install the author's version signed with their new key ${shownKey(line(next))}`,
    );
    // Versions signed with the new key are the author's.
    expect(await revocationOf(support, ID, "1.0.1", line(next))).toBeUndefined();
    expect((await lostKeyOf(support, ID, line(lost)))?.to).toBe(line(next));
    expect(await lostKeyOf(support, ID, line(next))).toBeUndefined();
  });

  it("counts nothing signed by another key, nor a lost-key statement about a key other than its signer", async () => {
    const pinned = newKey();
    const stranger = newKey();
    await keep(
      { v: 1, kind: "lost", id: ID, from: line(pinned), to: line(stranger), after: "0.0.1", reason: "x" },
      stranger,
    );
    await keep(
      { v: 1, kind: "lost", id: ID, from: line(stranger), to: line(stranger), after: "0.0.1", reason: "x" },
      pinned,
    );
    await keep({ v: 1, kind: "revoke", id: ID, upTo: "9.0.0", reason: "x" }, stranger);
    expect(await revocationOf(support, ID, "1.0.0", line(pinned))).toBeUndefined();
    expect(await lostKeyOf(support, ID, line(pinned))).toBeUndefined();
  });

  it("a revocation covers versions up to upTo, not one past it", async () => {
    const author = newKey();
    await keep({ v: 1, kind: "revoke", id: ID, upTo: "1.2.0", reason: "bad" }, author);
    expect(await revocationOf(support, ID, "1.2.0", line(author))).toMatchObject({ kind: "revoke" });
    expect(await revocationOf(support, ID, "1.2.1", line(author))).toBeUndefined();
  });
});
