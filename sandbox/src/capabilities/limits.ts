/**
 * Every size, count and time limit of the fenced capabilities, in one place. The defaults are
 * documented in sandbox/CAPABILITIES.md; a sandbox owner may override any of them.
 */

const MB = 1024 * 1024;

export interface CapabilityLimits {
  /** Largest request body a guest may send with fetch, in bytes (after base64 decoding). */
  fetchRequestBytes: number;
  /** Largest response body fetch delivers, in bytes, counted after decompression. */
  fetchResponseBytes: number;
  /** Redirect hops fetch follows (each one checked) before failing. */
  fetchMaxRedirects: number;
  /** The longest one fetch may take, ms, from the request to the body's last byte (redirects included). */
  fetchTimeoutMs: number;
  /** fetch requests one sandbox may have in flight at once. */
  fetchConcurrent: number;
  /** Largest WebSocket message, either direction, in bytes. */
  wsMessageBytes: number;
  /** WebSockets one sandbox may have open (or opening) at once. */
  wsOpenSockets: number;
  /** Default exec timeout, ms. */
  execDefaultTimeoutMs: number;
  /** Largest exec timeout a guest may ask for, ms. */
  execMaxTimeoutMs: number;
  /** Captured stdout, and separately stderr, of one exec, in bytes. */
  execOutputBytes: number;
  /** Programs one sandbox may have running at once. */
  execConcurrent: number;
  /** Arguments one exec may pass. */
  execMaxArgs: number;
  /** All arguments of one exec together, in UTF-8 bytes. */
  execArgsBytes: number;
  /** Largest file files.read returns, in bytes. */
  fileReadBytes: number;
  /** Largest file files.write writes, in bytes. */
  fileWriteBytes: number;
  /** Bytes of regular files the data folder may hold (files.write checks it). */
  dataFolderBytes: number;
  /** Files, folders and symlinks the data folder may hold. */
  dataFolderEntries: number;
  /** Entries files.list returns before failing. */
  fileListEntries: number;
  /** storage.json's largest size, in bytes. */
  storageBytes: number;
  /** Longest storage key, in characters. */
  storageKeyChars: number;
  /**
   * storage.json is rewritten whole, so its writes are paced: after writing N bytes the next
   * write waits N / this many seconds (changes made meanwhile are written together).
   */
  storageWriteBytesPerSecond: number;
}

export const DEFAULT_LIMITS: Readonly<CapabilityLimits> = Object.freeze({
  fetchRequestBytes: 10 * MB,
  fetchResponseBytes: 10 * MB,
  fetchMaxRedirects: 20,
  fetchTimeoutMs: 30_000,
  fetchConcurrent: 16,
  wsMessageBytes: 1 * MB,
  wsOpenSockets: 16,
  execDefaultTimeoutMs: 10_000,
  execMaxTimeoutMs: 60_000,
  execOutputBytes: 1 * MB,
  execConcurrent: 8,
  execMaxArgs: 1024,
  execArgsBytes: 256 * 1024,
  fileReadBytes: 10 * MB,
  fileWriteBytes: 10 * MB,
  dataFolderBytes: 100 * MB,
  dataFolderEntries: 5000,
  fileListEntries: 10_000,
  storageBytes: 5 * MB,
  storageKeyChars: 256,
  storageWriteBytesPerSecond: 1 * MB,
});

/** Shows a byte count the way error messages say it: `10 MB (10485760 bytes)`. */
export function describeBytes(bytes: number): string {
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB (${bytes} bytes)`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB (${bytes} bytes)`;
  return `${bytes} bytes`;
}
