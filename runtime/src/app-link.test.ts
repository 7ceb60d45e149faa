/**
 * The token proof and the UI address shape, at their limits. The proof over real loopback, and a
 * squatter refused by every client, are in test/host-http/guards.test.ts and app-keys.test.ts.
 */
import { describe, expect, it } from "vitest";
import { appProof, isProofNonce, isUiAddress, newProofNonce, proofHolds, uiAddress } from "./app-link.js";

const TICKET = "Zz0_-".repeat(8) + "abc";

describe("the token proof", () => {
  it("a nonce is 43 base64url characters, fresh each time", () => {
    const nonces = new Set(Array.from({ length: 20 }, newProofNonce));
    expect(nonces.size).toBe(20);
    for (const nonce of nonces) expect(isProofNonce(nonce)).toBe(true);
    expect(isProofNonce("a".repeat(42))).toBe(false);
    expect(isProofNonce("a".repeat(44))).toBe(false);
    expect(isProofNonce(`${"a".repeat(42)}=`)).toBe(false);
    expect(isProofNonce(undefined)).toBe(false);
  });

  it("holds only for the same token and nonce", () => {
    const nonce = newProofNonce();
    const proof = appProof("token-1", nonce);
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(proofHolds("token-1", nonce, proof)).toBe(true);
    expect(proofHolds("token-2", nonce, proof)).toBe(false);
    expect(proofHolds("token-1", newProofNonce(), proof)).toBe(false);
    expect(proofHolds("token-1", nonce, proof.slice(1))).toBe(false);
    expect(proofHolds("token-1", nonce, `${proof}=`)).toBe(false);
    expect(proofHolds("token-1", nonce, undefined)).toBe(false);
    // Not a bare HMAC of the nonce: the proof means "I hold svc's token" and nothing else.
    expect(proof).not.toBe(appProof("token-1", `x${nonce}`));
  });
});

describe("the UI address", () => {
  it("is http://127.0.0.1:<port>/#t=<43-character ticket>, ports 1 to 65535", () => {
    expect(uiAddress(41234, TICKET)).toBe(`http://127.0.0.1:41234/#t=${TICKET}`);
    for (const port of [1, 65535]) expect(isUiAddress(uiAddress(port, TICKET))).toBe(true);
    for (const port of [0, 65536, 100000]) expect(isUiAddress(uiAddress(port, TICKET))).toBe(false);
  });

  it("is nothing else", () => {
    for (const url of [
      `http://127.0.0.1:41234/#t=${TICKET.slice(1)}`,
      `http://127.0.0.1:41234/#t=${TICKET}a`,
      `http://localhost:41234/#t=${TICKET}`,
      `https://127.0.0.1:41234/#t=${TICKET}`,
      `http://127.0.0.1:041234/#t=${TICKET}`,
      `http://127.0.0.1:41234/x#t=${TICKET}`,
      `http://127.0.0.1:41234/?a=b#t=${TICKET}`,
      `http://u@127.0.0.1:41234/#t=${TICKET}`,
      `http://127.0.0.1:41234/#t=${TICKET}\n`,
      `file:///tmp/x#t=${TICKET}`,
      42,
    ])
      expect(isUiAddress(url)).toBe(false);
  });
});
