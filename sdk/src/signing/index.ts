/**
 * `@svc/api/signing`: who made a package. minisign's formats, the content manifest a package's
 * signature covers, and how a key is shown to a person. Node only (`node:crypto`); svckit signs
 * and verifies with it, svc-host verifies with it.
 */
export {
  SignatureError,
  formatPublicKey,
  keyIdText,
  parsePublicKey,
  publicKeyOfSeed,
  signMessage,
  verifyMessage,
} from "./minisign.js";
export type { PublicKey, SecretKey } from "./minisign.js";
export {
  SIGNING_FILES,
  checkPackage,
  contentManifest,
  contentManifestSchema,
  signPackage,
  trustedCommentOf,
} from "./content-manifest.js";
export type { ContentManifest, PackageSignature } from "./content-manifest.js";
export { keyFingerprint, keyWords } from "./fingerprint.js";
export {
  STATEMENT_FILES,
  lostKeySchema,
  revocationSchema,
  rotationSchema,
  signStatement,
  statementKey,
  verifyStatement,
} from "./statements.js";
export type { LostKey, Revocation, Rotation, Statement } from "./statements.js";
