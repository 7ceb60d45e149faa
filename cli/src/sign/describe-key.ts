/** One line that names a key the way a person compares it: fingerprint, words, and minisign's id. */
import { keyFingerprint, keyIdText, keyWords, type PublicKey } from "@svc/api/signing";

/**
 * @example
 * describeKey(key) // "fingerprint 3f2a 91c0 … b713 (maple comet harbor quill), minisign key id 5A3C0F11D2E4B809"
 */
export function describeKey(key: PublicKey): string {
  return `fingerprint ${keyFingerprint(key.key)} (${keyWords(key.key)}), minisign key id ${keyIdText(key.keyId)}`;
}
