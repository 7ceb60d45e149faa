/**
 * `svc-host install https://…/x.svc`: fetches the package to a private temporary file, over
 * https only, at most `DOWNLOAD_LIMITS.bytes` (counted as it arrives, never taken from
 * Content-Length alone) and within `DOWNLOAD_LIMITS.timeoutMs`; the install then reviews it as
 * any file. Plain `http://127.0.0.1` is allowed only when SVC_TEST_ALLOW_LOOPBACK_HTTP=1, for
 * tests that cannot make a certificate; nothing else ever fetches over plain http.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InstallError, PACKAGE_LIMITS } from "../review/index.js";

export const DOWNLOAD_LIMITS = {
  /** Bytes of a package fetched from an address: the most it may hold unpacked, 50 MB. */
  bytes: PACKAGE_LIMITS.totalBytes,
  /** The whole fetch, headers to last byte: 60 s. */
  timeoutMs: 60_000,
} as const;

/** The test-only switch that lets `http://127.0.0.1:<port>/…` through. */
export const LOOPBACK_HTTP_ENV = "SVC_TEST_ALLOW_LOOPBACK_HTTP";

/** True when `arg` is an address rather than a file. */
export function isAddress(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg);
}

function checkedUrl(address: string, env: Readonly<Record<string, string | undefined>>): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new InstallError(`cannot install ${address}: it is not an address`);
  }
  const loopbackTest = env[LOOPBACK_HTTP_ENV] === "1" && url.protocol === "http:" && url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !loopbackTest)
    throw new InstallError(
      `cannot install ${address}: only https:// addresses are fetched; download it yourself and install the file`,
    );
  return url;
}

/**
 * Fetches `address` into a temporary file; `done()` removes it.
 *
 * @example
 * const got = await fetchPackage("https://example.com/deploys-1.2.0.svc", process.env);
 * try { await installPackage(got.file, …) } finally { await got.done() }
 */
export async function fetchPackage(
  address: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ file: string; done(): Promise<void> }> {
  const url = checkedUrl(address, env);
  const limitMb = DOWNLOAD_LIMITS.bytes / 1024 / 1024;
  let response: Response;
  const signal = AbortSignal.timeout(DOWNLOAD_LIMITS.timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    response = await fetch(url, { signal, redirect: "error" });
    if (!response.ok) throw new InstallError(`cannot install ${address}: the server answered ${response.status}`);
    if (Number(response.headers.get("content-length") ?? 0) > DOWNLOAD_LIMITS.bytes)
      throw new InstallError(`cannot install ${address}: it is larger than ${limitMb} MB, the most a package may be`);
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
      size += read.value.byteLength;
      if (size > DOWNLOAD_LIMITS.bytes) {
        await reader!.cancel();
        throw new InstallError(`cannot install ${address}: it is larger than ${limitMb} MB, the most a package may be`);
      }
      chunks.push(Buffer.from(read.value));
    }
  } catch (error) {
    if (error instanceof InstallError) throw error;
    const why = signal.aborted
      ? `no answer within ${DOWNLOAD_LIMITS.timeoutMs / 1000} s`
      : (((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
    throw new InstallError(`cannot install ${address}: fetching it failed: ${why}`);
  }
  const dir = await mkdtemp(join(tmpdir(), "svc-fetch-"));
  const name = decodeURIComponent(url.pathname.split("/").pop() || "package.svc").replace(/[^\w.-]/g, "_");
  const file = join(dir, name);
  await writeFile(file, Buffer.concat(chunks), { mode: 0o600 });
  return { file, done: () => rm(dir, { recursive: true, force: true }) };
}
