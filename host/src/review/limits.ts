/**
 * Caps on a `.svc` package (ours: SPEC.md sets none). A real extension is a package.json, one
 * bundled `dist/index.js`, maybe `dist/tools.json`, a README and a licence: far below these.
 */
export const PACKAGE_LIMITS = {
  /** Entries in the zip, folders included. */
  entries: 2_000,
  /** Bytes of one entry once unpacked: 20 MB. */
  entryBytes: 20 * 1024 * 1024,
  /** Bytes of all entries once unpacked: 50 MB. */
  totalBytes: 50 * 1024 * 1024,
  /** Unpacked bytes per packed byte of one entry… */
  ratio: 100,
  /** …counted only past this many unpacked bytes, so a tiny file of blanks is not a "bomb". */
  ratioFloorBytes: 1024 * 1024,
  /** Bytes of `package.json`. */
  manifestBytes: 1024 * 1024,
} as const;

/** A package refused before anything was installed; the message says why, for a person. */
export class InstallError extends Error {
  override readonly name = "InstallError";
}
