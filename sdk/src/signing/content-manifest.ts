/**
 * What a signature covers: the content manifest `svc-manifest.json` — the extension's id and
 * version and the SHA-256 of every other file in the package — as canonical JSON (RFC 8785), so
 * the same files give the same bytes on every machine. Its minisign signature
 * `svc-manifest.json.minisig` has the trusted comment `<id> <version>`; the author's public key
 * travels as `svc-key.pub`, so `minisign -Vm svc-manifest.json -p svc-key.pub` works on an
 * unzipped package.
 */
import { z } from "zod";
import { canonicalBytes, sha256Hex } from "./canonical.js";
import {
  formatPublicKey,
  parsePublicKey,
  signMessage,
  SignatureError,
  verifyMessage,
  type PublicKey,
  type SecretKey,
} from "./minisign.js";

/** The names of the signing files inside a package; every other file is listed in the manifest. */
export const SIGNING_FILES = {
  manifest: "svc-manifest.json",
  signature: "svc-manifest.json.minisig",
  publicKey: "svc-key.pub",
} as const;

const SIGNING_NAMES: readonly string[] = Object.values(SIGNING_FILES);

export const contentManifestSchema = z.strictObject({
  v: z.literal(1),
  id: z.string().min(1),
  version: z.string().min(1),
  /** Path (with `/`) → lower-case hex SHA-256 of the file's bytes. */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type ContentManifest = z.infer<typeof contentManifestSchema>;

/** The files of a package by path, without the signing files. */
function contentFiles(files: ReadonlyMap<string, Buffer>): [string, Buffer][] {
  return [...files].filter(([path]) => !SIGNING_NAMES.includes(path));
}

/** The content manifest's bytes: canonical JSON (RFC 8785). */
export function contentManifest(id: string, version: string, files: ReadonlyMap<string, Buffer>): Buffer {
  const digests = Object.fromEntries(contentFiles(files).map(([path, data]) => [path, sha256Hex(data)]));
  const manifest: ContentManifest = { v: 1, id, version, files: digests };
  return canonicalBytes(manifest);
}

/** The trusted comment a package's signature carries. */
export function trustedCommentOf(id: string, version: string): string {
  return `${id} ${version}`;
}

/**
 * The three signing files for a package of `files` (path → bytes), signed with `secret`.
 *
 * @example
 * for (const [path, data] of signPackage("com.example.deploys", "1.2.0", files, secret)) files.set(path, data);
 */
export function signPackage(
  id: string,
  version: string,
  files: ReadonlyMap<string, Buffer>,
  secret: SecretKey,
): Map<string, Buffer> {
  const manifest = contentManifest(id, version, files);
  const signature = signMessage(
    manifest,
    secret,
    trustedCommentOf(id, version),
    `signature of ${id} ${version}, from svckit`,
  );
  return new Map([
    [SIGNING_FILES.manifest, manifest],
    [SIGNING_FILES.signature, Buffer.from(signature, "utf8")],
    [SIGNING_FILES.publicKey, Buffer.from(formatPublicKey(secret), "utf8")],
  ]);
}

/** The id and version package.json declares, when it is readable. */
function declaredIdentity(data: Buffer | undefined): { id?: string; version?: string } {
  try {
    const json = JSON.parse(data?.toString("utf8") ?? "") as { version?: unknown; svc?: { id?: unknown } };
    return {
      id: typeof json.svc?.id === "string" ? json.svc.id : undefined,
      version: typeof json.version === "string" ? json.version : undefined,
    };
  } catch {
    return {};
  }
}

export type PackageSignature =
  { kind: "unsigned" } | { kind: "signed"; key: PublicKey; id: string; version: string; files: string[] };

/**
 * Checks a package's files (path → bytes) against its signed manifest: the signature with the
 * key it carries, then every file's digest, no file missing and none added. An unsigned package
 * (none of the signing files) is `{kind: "unsigned"}`; anything else wrong throws
 * `SignatureError` naming every problem.
 */
export function checkPackage(files: ReadonlyMap<string, Buffer>): PackageSignature {
  const present = SIGNING_NAMES.filter((name) => files.has(name));
  if (present.length === 0) return { kind: "unsigned" };
  const missing = SIGNING_NAMES.filter((name) => !files.has(name));
  if (missing.length)
    throw new SignatureError(`the signature is incomplete: it has ${present.join(", ")} but not ${missing.join(", ")}`);
  const key = parsePublicKey(files.get(SIGNING_FILES.publicKey)!.toString("utf8"));
  const manifestBytes = files.get(SIGNING_FILES.manifest)!;
  const { trustedComment } = verifyMessage(manifestBytes, files.get(SIGNING_FILES.signature)!.toString("utf8"), key);
  let manifest: ContentManifest;
  try {
    manifest = contentManifestSchema.parse(JSON.parse(manifestBytes.toString("utf8")));
  } catch (error) {
    throw new SignatureError(`${SIGNING_FILES.manifest} is not a content manifest: ${(error as Error).message}`);
  }
  if (trustedComment !== trustedCommentOf(manifest.id, manifest.version))
    throw new SignatureError(
      `the signature's trusted comment ${JSON.stringify(trustedComment)} does not name ${JSON.stringify(trustedCommentOf(manifest.id, manifest.version))}`,
    );
  const problems: string[] = [];
  const actual = contentFiles(files);
  for (const [path, data] of actual) {
    const expected = Object.hasOwn(manifest.files, path) ? manifest.files[path] : undefined;
    if (expected === undefined) problems.push(`${JSON.stringify(path)} is not in the signed manifest`);
    else if (sha256Hex(data) !== expected) problems.push(`${JSON.stringify(path)} does not match the signed manifest`);
  }
  const have = new Set(actual.map(([path]) => path));
  for (const path of Object.keys(manifest.files))
    if (!have.has(path)) problems.push(`${JSON.stringify(path)} is in the signed manifest but not in the package`);
  if (problems.length)
    throw new SignatureError(`its files do not match what the author signed: ${problems.join("; ")}`);
  // The files are the author's; the id and version they signed must be the ones package.json declares.
  const declared = declaredIdentity(files.get("package.json"));
  if (declared.id !== manifest.id || declared.version !== manifest.version)
    throw new SignatureError(
      `package.json says ${trustedCommentOf(declared.id ?? "(no id)", declared.version ?? "(no version)")} but the signature is for ${trustedCommentOf(manifest.id, manifest.version)}`,
    );
  return { kind: "signed", key, id: manifest.id, version: manifest.version, files: Object.keys(manifest.files).sort() };
}
