/**
 * The token proof and the UI address shape, at their limits. The proof over real loopback, and a
 * squatter refused by every client, are in test/host-http/guards.test.ts and app-keys.test.ts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  APP_PROOF_NONCE_HEADER,
  MAX_PROOF_ANSWER_BYTES,
  appProof,
  isProofNonce,
  isUiAddress,
  newProofNonce,
  proofHolds,
  proveApp,
  uiAddress,
} from "./app-link.js";

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

describe("proveApp", () => {
  /** A loopback server holding the token that pads its true answer to `bytes`, or answers `status`. */
  async function answering(bytes: number, status = 200) {
    const server = createServer((req, res) => {
      const body = JSON.stringify({ proof: appProof("tok", String(req.headers[APP_PROOF_NONCE_HEADER])) });
      res.writeHead(status, { "content-type": "application/json" }).end(body.padEnd(bytes, " "));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const close = () => {
      server.close();
      server.closeAllConnections();
    };
    return { port: (server.address() as AddressInfo).port, close };
  }
  const notSvc = (port: number) =>
    `something else is answering on port ${port}: it is not svc (it could not prove it holds svc's key). Stop it, or start svc-host again.`;

  it(`takes a true answer of up to ${MAX_PROOF_ANSWER_BYTES} bytes, not one byte more`, async () => {
    const atLimit = await answering(MAX_PROOF_ANSWER_BYTES);
    const past = await answering(MAX_PROOF_ANSWER_BYTES + 1);
    try {
      await expect(proveApp(atLimit.port, "tok")).resolves.toBeUndefined();
      await expect(proveApp(past.port, "tok")).rejects.toThrow(notSvc(past.port));
    } finally {
      atLimit.close();
      past.close();
    }
  });

  it("refuses a true proof under a status other than 200, and keeps a refused connection's code", async () => {
    const wrong = await answering(0, 201);
    try {
      await expect(proveApp(wrong.port, "tok")).rejects.toThrow(notSvc(wrong.port));
    } finally {
      wrong.close();
    }
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    await expect(proveApp(port, "tok")).rejects.toMatchObject({ code: "ECONNREFUSED" });
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
