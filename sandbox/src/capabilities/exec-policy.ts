/**
 * `permissions.exec`: which executables `ctx.exec` may run. A bare name is looked up on the
 * host's PATH; an absolute path is taken as is; both are compared by real path (symlinks
 * resolved) with what the manifest's entries resolve to. The check returns the *manifest
 * entry's* path to launch, so a guest-made symlink can never choose the program's argv[0]
 * (multi-call binaries such as busybox decide what to be from it).
 */
import { access, realpath, stat } from "node:fs/promises";
import { constants } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { CapabilityContext } from "./index.js";
import { deny } from "./denial.js";

/** Finds `name` on `pathEnv` the way a shell would: the first executable regular file. */
export async function findOnPath(name: string, pathEnv: string): Promise<string | undefined> {
  for (const dir of pathEnv.split(":")) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    const usable = await stat(candidate)
      .then((s) => s.isFile() && access(candidate, constants.X_OK).then(() => true))
      .catch(() => false);
    if (usable) return candidate;
  }
  return undefined;
}

interface Resolved {
  /** The path to launch. */
  path: string;
  /** Its real path, for comparison. */
  real: string;
}

/** Resolves a bare name on PATH or an absolute path; undefined for anything else or missing. */
async function resolveExecutable(file: string, pathEnv: string): Promise<Resolved | undefined> {
  if (file.length === 0 || file.includes("\0")) return undefined;
  const path = file.includes("/") ? (isAbsolute(file) && !hasDotSegment(file) ? file : undefined) : await findOnPath(file, pathEnv);
  if (path === undefined) return undefined;
  const real = await realpath(path).catch(() => undefined);
  return real === undefined ? undefined : { path, real };
}

function hasDotSegment(path: string): boolean {
  return path.split("/").some((part) => part === ".." || part === ".");
}

/**
 * Checks that `file` is allowed by `permissions.exec`; returns the path to launch.
 * @example await checkExec(cx, "git", process.env.PATH!) // "/usr/bin/git" when "git" is listed
 */
export async function checkExec(cx: CapabilityContext, file: string, pathEnv: string): Promise<string> {
  const refuse = (reason: string, fix?: string) => deny(cx, { kind: "exec", target: file, reason, fix });
  if (file.includes("/") && !isAbsolute(file)) {
    throw refuse("relative paths are refused", "use a bare name found on PATH or an absolute path");
  }
  if (hasDotSegment(file)) throw refuse('"." and ".." are not allowed in an executable path');
  const wanted = await resolveExecutable(file, pathEnv);
  const listed = await Promise.all(cx.permissions.exec.map((entry) => resolveExecutable(entry, pathEnv)));
  const match = listed.find((entry) => entry !== undefined && entry.real === wanted?.real);
  if (wanted && match) return match.path;
  if (!wanted && !cx.permissions.exec.includes(file)) {
    throw refuse(`"${file}" is not in permissions.exec`, `add "${file}" to svc.permissions.exec in package.json`);
  }
  if (!wanted) throw new Error(`exec: "${file}" was not found${file.includes("/") ? "" : " on PATH"}`);
  const via = file.includes("/") && wanted.real !== file ? ` (it leads to "${wanted.real}")` : "";
  throw refuse(`"${file}"${via} is not in permissions.exec`, `add "${file}" to svc.permissions.exec in package.json`);
}
