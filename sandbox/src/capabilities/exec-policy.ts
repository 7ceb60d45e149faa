/**
 * `permissions.exec`: which executables `ctx.exec` may run. A bare name is looked up on the
 * host's PATH; an absolute path is taken as is; both are compared by real path (symlinks
 * resolved) with what the manifest's entries resolve to. The check returns the *manifest
 * entry's* path to launch, so a guest-made symlink can never choose the program's argv[0]
 * (multi-call binaries such as busybox decide what to be from it).
 */
import { access, realpath, stat } from "node:fs/promises";
import { constants, type Stats } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { loadApi } from "./libraries.js";
import type { CapabilityContext } from "./context.js";
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
  const path = file.includes("/")
    ? isAbsolute(file) && !hasDotSegment(file)
      ? file
      : undefined
    : await findOnPath(file, pathEnv);
  if (path === undefined) return undefined;
  const real = await realpath(path).catch(() => undefined);
  return real === undefined ? undefined : { path, real };
}

function hasDotSegment(path: string): boolean {
  return path.split("/").some((part) => part === ".." || part === ".");
}

/** True when the person running svc (not being root) owns it, or its group or everyone may write it. */
function writableByUser(info: Stats): boolean {
  const uid = process.getuid?.();
  return (info.mode & 0o022) !== 0 || (uid !== undefined && uid !== 0 && info.uid === uid);
}

/**
 * Where a program could be replaced by something the person did not install: the file or its
 * folder is writable by the person (or by anyone). Such a program is refused, because anything
 * that can write there (a download, another extension's program) could swap it.
 */
async function writablePlace(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info && writableByUser(info)) return path;
  }
  return undefined;
}

/** The fix named when a program needs `runAnyCommand`. */
export const RUN_ANY_FIX =
  'only if it must: add "runAnyCommand": true to svc.permissions in package.json; the install summary then says it can run any command';

export interface ExecCheckOptions {
  /** Skip the "the person can write this program" check (tests that run scripts from a temp folder). */
  allowWritablePrograms?: boolean;
}

/** The launch decision: the path to start and whether git's rules apply. */
export interface ExecLaunch {
  path: string;
  /** The program is git (by its real name): git-rules.ts applies. */
  git: boolean;
}

/**
 * Checks that `file` is allowed by `permissions.exec`; returns the path to launch.
 * A program that runs other programs or writes files anywhere (programs.ts in @svc/api) also
 * needs `runAnyCommand`; a
 * program the person can write, or in a folder they can write, is refused.
 * @example await checkExec(cx, "git", process.env.PATH!) // "/usr/bin/git" when "git" is listed
 */
export async function checkExec(
  cx: CapabilityContext,
  file: string,
  pathEnv: string,
  options: ExecCheckOptions = {},
): Promise<ExecLaunch> {
  const refuse = (reason: string, fix?: string) => deny(cx, { kind: "exec", target: file, reason, fix });
  if (file.includes("/") && !isAbsolute(file)) {
    throw refuse("relative paths are refused", "use a bare name found on PATH or an absolute path");
  }
  if (hasDotSegment(file)) throw refuse('"." and ".." are not allowed in an executable path');
  const wanted = await resolveExecutable(file, pathEnv);
  const listed = await Promise.all(cx.permissions.exec.map((entry) => resolveExecutable(entry, pathEnv)));
  const match = listed.find((entry) => entry !== undefined && entry.real === wanted?.real);
  if (wanted && match) {
    // Judged by what is launched, not by the name the guest used.
    const names = [match.path, match.real];
    const { needsRunAnyCommand } = await loadApi();
    const why = names.map((name) => needsRunAnyCommand(name)).find((reason) => reason !== undefined);
    if (!cx.permissions.runAnyCommand && why !== undefined) {
      throw refuse(
        why === "runs programs"
          ? `"${file}" runs other programs, so listing it would let the extension run any command`
          : `"${file}" writes files anywhere (any installed package, svc's own files, ~/.bashrc), so listing it would let the extension do whatever you can`,
        RUN_ANY_FIX,
      );
    }
    const writable = options.allowWritablePrograms
      ? undefined
      : await writablePlace([match.real, dirname(match.real), dirname(match.path)]);
    if (writable !== undefined) {
      throw refuse(
        `"${file}" could be replaced by another program: ${writable === match.real ? "the file" : "its folder"} can be written without being root`,
        "install the program in a system folder such as /usr/bin",
      );
    }
    return { path: match.path, git: names.some((name) => /^git$/.test(name.split("/").pop() ?? "")) };
  }
  if (!wanted && !cx.permissions.exec.includes(file)) {
    throw refuse(`"${file}" is not in permissions.exec`, `add "${file}" to svc.permissions.exec in package.json`);
  }
  if (!wanted) throw new Error((await loadApi()).programNotFound(file));
  const via = file.includes("/") && wanted.real !== file ? ` (it leads to "${wanted.real}")` : "";
  throw refuse(`"${file}"${via} is not in permissions.exec`, `add "${file}" to svc.permissions.exec in package.json`);
}
