/**
 * crypto.subtle in the guest: Node's WebCrypto results, keys that are numbers meaningful only
 * in their own sandbox, and bounds on what a guest may ask.
 */
import { webcrypto } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { Sandbox } from "../sandbox.js";
import { UPDATE, optionsFor, recorder } from "../sandbox.fixtures.js";
import { MAX_KEYS, MAX_PBKDF2_ITERATIONS, SubtleOps } from "./subtle-ops.js";

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

async function inGuest(body: string, memoryBytes?: number): Promise<any> {
  // megabytes through QuickJS's JSON.stringify: a long slice, so a loaded machine does not interrupt them
  const limits = { sliceMs: 20_000, ...(memoryBytes ? { memoryBytes } : {}) };
  const sandbox = await Sandbox.create(
    optionsFor(`module.exports = { async update() { ${body} } };`, { limits }),
    recorder(),
  );
  sandboxes.push(sandbox);
  await sandbox.load();
  return sandbox.invoke(UPDATE);
}

/** Async code run by Node against its own WebCrypto, with the same helpers the guest gets. */
async function inNode(body: string): Promise<unknown> {
  const run = new Function("crypto", `return (async () => { ${HELPERS} ${body} })();`);
  return JSON.parse(JSON.stringify(await run(webcrypto)));
}

const HELPERS = `
  const enc = (s) => new TextEncoder().encode(s);
  const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
  const s = crypto.subtle;
`;

/** Deterministic operations: the guest must give exactly Node's bytes. */
const DETERMINISTIC = `
  const out = {};
  out.sha = await Promise.all(["SHA-1", "SHA-256", "SHA-384", "SHA-512"].map(async (h) => hex(await s.digest(h, enc("abc")))));
  const hmac = await s.importKey("raw", enc("secret"), { name: "HMAC", hash: "SHA-256" }, true, ["sign", "verify"]);
  out.hmac = hex(await s.sign("HMAC", hmac, enc("message")));
  out.hmacOk = await s.verify("HMAC", hmac, await s.sign("HMAC", hmac, enc("m")), enc("m"));
  out.hmacJwk = await s.exportKey("jwk", hmac);
  const aesRaw = new Uint8Array(32).map((_, i) => i);
  const gcm = await s.importKey("raw", aesRaw, "AES-GCM", true, ["encrypt", "decrypt"]);
  const iv = new Uint8Array(12).fill(7);
  const sealed = await s.encrypt({ name: "AES-GCM", iv, additionalData: enc("aad") }, gcm, enc("hello gcm"));
  out.gcm = hex(sealed);
  out.gcmOpen = new TextDecoder().decode(await s.decrypt({ name: "AES-GCM", iv, additionalData: enc("aad") }, gcm, sealed));
  const cbc = await s.importKey("raw", aesRaw.slice(0, 16), { name: "AES-CBC" }, false, ["encrypt", "decrypt"]);
  out.cbc = hex(await s.encrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, cbc, enc("sixteen bytes!!!")));
  const pw = await s.importKey("raw", enc("password"), "PBKDF2", false, ["deriveBits", "deriveKey"]);
  out.pbkdf2 = hex(await s.deriveBits({ name: "PBKDF2", salt: enc("salt"), iterations: 1000, hash: "SHA-256" }, pw, 256));
  const derived = await s.deriveKey({ name: "PBKDF2", salt: enc("salt"), iterations: 10, hash: "SHA-256" }, pw, { name: "AES-GCM", length: 128 }, true, ["encrypt"]);
  out.derivedKey = hex(await s.exportKey("raw", derived));
  const ikm = await s.importKey("raw", enc("input key"), "HKDF", false, ["deriveBits"]);
  out.hkdf = hex(await s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: enc("s"), info: enc("i") }, ikm, 128));
  const edJwk = { kty: "OKP", crv: "Ed25519", d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" };
  const ed = await s.importKey("jwk", edJwk, { name: "Ed25519" }, true, ["sign"]);
  out.ed25519 = hex(await s.sign("Ed25519", ed, enc("")));
  out.ed25519Pkcs8 = hex(await s.exportKey("pkcs8", ed));
  const edPublic = await s.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: edJwk.x }, "Ed25519", true, ["verify"]);
  out.ed25519Spki = hex(await s.exportKey("spki", edPublic));
  out.keyShape = [edPublic.type, edPublic.extractable, edPublic.algorithm, edPublic.usages, Object.prototype.toString.call(edPublic)];
  return out;
`;

describe("crypto.subtle in the guest", () => {
  it("gives Node's bytes for digest, HMAC, AES-GCM/CBC, PBKDF2, HKDF, Ed25519 and raw/jwk/spki/pkcs8 export", async () => {
    const guest = await inGuest(HELPERS + DETERMINISTIC);
    expect(guest).toEqual(await inNode(DETERMINISTIC));
    expect(guest.hmacOk).toBe(true);
    expect(guest.gcmOpen).toBe("hello gcm");
  });

  it("generates keys: ECDSA and RSA-PSS sign and verify, ECDH agrees on both sides, a key pair round-trips through spki/pkcs8", async () => {
    const guest = await inGuest(`${HELPERS}
      const ec = await s.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
      const sig = await s.sign({ name: "ECDSA", hash: "SHA-256" }, ec.privateKey, enc("data"));
      const rsa = await s.generateKey({ name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, false, ["sign", "verify"]);
      const rsaSig = await s.sign({ name: "RSA-PSS", saltLength: 32 }, rsa.privateKey, enc("data"));
      const a = await s.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
      const b = await s.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
      const ab = hex(await s.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, 384));
      const ba = hex(await s.deriveBits({ name: "ECDH", public: a.publicKey }, b.privateKey, 384));
      const spki = await s.exportKey("spki", ec.publicKey);
      const again = await s.importKey("spki", spki, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
      let refused;
      try { await s.exportKey("raw", rsa.privateKey); } catch (e) { refused = [e.name, e.message]; }
      return {
        ecdsa: await s.verify({ name: "ECDSA", hash: "SHA-256" }, again, sig, enc("data")),
        tampered: await s.verify({ name: "ECDSA", hash: "SHA-256" }, again, sig, enc("datA")),
        rsa: await s.verify({ name: "RSA-PSS", saltLength: 32 }, rsa.publicKey, rsaSig, enc("data")),
        rsaAlgorithm: [rsa.publicKey.algorithm.modulusLength, Array.from(rsa.publicKey.algorithm.publicExponent)],
        ecdh: ab === ba && ab.length === 96,
        refused,
      };`);
    expect(guest).toEqual({
      ecdsa: true,
      tampered: false,
      rsa: true,
      rsaAlgorithm: [2048, [1, 0, 1]],
      ecdh: true,
      // Node 20 names this DOMException "InvalidAccessException"; the guest gets Node's name
      refused: [expect.stringMatching(/^InvalidAccess/), "key is not extractable"],
    });
  });

  it("refuses a forged key, a too costly request and an oversized input, as guest errors", async () => {
    const guest = await inGuest(`${HELPERS}
      const attempt = async (f) => { try { await f(); return "no error"; } catch (e) { return e.name + ": " + e.message; } };
      const forged = Object.create(CryptoKey.prototype, { type: { value: "secret" }, algorithm: { value: { name: "HMAC" } } });
      const pw = await s.importKey("raw", enc("pw"), "PBKDF2", false, ["deriveBits"]);
      return [
        await attempt(() => new CryptoKey()),
        await attempt(() => s.sign("HMAC", forged, enc("x"))),
        await attempt(() => s.sign("HMAC", { key: 1 }, enc("x"))),
        await attempt(() => s.deriveBits({ name: "PBKDF2", salt: enc("s"), iterations: ${MAX_PBKDF2_ITERATIONS + 1}, hash: "SHA-256" }, pw, 256)),
        await attempt(() => s.generateKey({ name: "RSA-OAEP", modulusLength: 16384, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, false, ["encrypt"])),
        await attempt(() => s.digest("SHA-256", new Uint8Array(12 * 1024 * 1024))),
      ];`);
    expect(guest).toEqual([
      "TypeError: Illegal constructor",
      "TypeError: crypto.subtle: expected a CryptoKey",
      "TypeError: crypto.subtle: expected a CryptoKey",
      `RangeError: crypto.subtle: ${MAX_PBKDF2_ITERATIONS + 1} PBKDF2 iterations, over the limit of ${MAX_PBKDF2_ITERATIONS}`,
      "RangeError: crypto.subtle: an RSA modulus of 16384 bits, over the limit of 8192",
      "RangeError: base64 encoding: the data is 12582912 bytes, over the limit of 11796480",
    ]);
    // at the limit: 11 MiB of data is 15,379,116 characters of base64 (the guest holds the
    // bytes, their base64 and the JSON text at once: more than the default 64 MB heap)
    const atLimit = `return (await crypto.subtle.digest("SHA-256", new Uint8Array(11 * 1024 * 1024))).byteLength;`;
    expect(await inGuest(atLimit, 160 * 1024 * 1024)).toBe(32);
  });
});

describe("the crypto.subtle op", () => {
  const secret = Buffer.from("secret").toString("base64");

  it("knows a key number only in the sandbox that made it, and forgets every key when cleared", async () => {
    const a = new SubtleOps();
    const b = new SubtleOps();
    const made = (await a.run({
      method: "importKey",
      format: "raw",
      keyData: secret,
      algorithm: { name: "HMAC", hash: "SHA-256" },
      extractable: false,
      usages: ["sign"],
    })) as { key: number };
    const sign = { method: "sign", algorithm: "HMAC", key: { key: made.key }, data: secret };
    await expect(a.run(sign)).resolves.toMatchObject({ bytes: expect.any(String) });
    await expect(b.run(sign)).rejects.toThrow("crypto.subtle: not a CryptoKey of this extension");
    await expect(a.run({ ...sign, key: { key: made.key + 1 } })).rejects.toThrow("not a CryptoKey of this extension");
    await expect(a.run({ ...sign, key: made.key })).rejects.toThrow("not a CryptoKey of this extension");
    a.clear();
    expect(a.keyCount).toBe(0);
    await expect(a.run(sign)).rejects.toThrow("not a CryptoKey of this extension");
  });

  it("holds at most MAX_KEYS keys per sandbox", async () => {
    const host = new SubtleOps();
    const importOne = () =>
      host.run({
        method: "importKey",
        format: "raw",
        keyData: secret,
        algorithm: { name: "HMAC", hash: "SHA-256" },
        extractable: false,
        usages: ["sign"],
      });
    for (let i = 0; i < MAX_KEYS; i++) await importOne();
    await expect(importOne()).rejects.toThrow(`crypto.subtle: this extension holds ${MAX_KEYS} keys, the limit`);
  });

  it("refuses unknown methods and formats, bad usages and JWK members that are not plain", async () => {
    const host = new SubtleOps();
    await expect(host.run({ method: "constructor" })).rejects.toThrow('crypto.subtle: "constructor" is not a method');
    await expect(host.run({ method: "exportKey", format: "pem", key: { key: 1 } })).rejects.toThrow(
      '"pem" is not a key format',
    );
    await expect(
      host.run({ method: "importKey", format: "raw", keyData: secret, algorithm: "HMAC", usages: ["everything"] }),
    ).rejects.toThrow("key usages should be");
    await expect(
      host.run({ method: "importKey", format: "jwk", keyData: { kty: { nested: 1 } }, algorithm: "HMAC", usages: [] }),
    ).rejects.toThrow('JWK member "kty"');
  });
});
