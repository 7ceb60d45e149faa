import {
  SignJWT,
  jwtVerify,
  importJWK,
  exportJWK,
  generateKeyPair,
  CompactEncrypt,
  compactDecrypt,
  decodeJwt,
  base64url,
} from "jose";
export default async () => {
  const secret = new TextEncoder().encode("a-string-secret-at-least-256-bits-long");
  const token = await new SignJWT({ sub: "svc", role: "tool" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(1700000000)
    .setExpirationTime(4000000000)
    .sign(secret);
  const verified = await jwtVerify(token, secret);
  const ed = await importJWK(
    {
      kty: "OKP",
      crv: "Ed25519",
      d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
      x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
    },
    "EdDSA",
  );
  const edToken = await new SignJWT({ n: 1 }).setProtectedHeader({ alg: "EdDSA" }).sign(ed);
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const esToken = await new SignJWT({ ok: true }).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
  const esPayload = (await jwtVerify(esToken, publicKey)).payload;
  const jwk = await exportJWK(publicKey);
  const key = new Uint8Array(32).fill(3);
  const jwe = await new CompactEncrypt(new TextEncoder().encode("secret text"))
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .encrypt(key);
  const opened = new TextDecoder().decode((await compactDecrypt(jwe, key)).plaintext);
  return {
    token,
    payload: verified.payload,
    edToken,
    esPayload,
    jwkKeys: Object.keys(jwk).sort(),
    opened,
    decoded: decodeJwt(token),
    b64: base64url.encode("hi?"),
  };
};
