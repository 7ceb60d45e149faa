/**
 * Installs a `.svc` file: unpack safely into a staging folder, check the manifest and the code,
 * show the person what the extension is and can reach, and only when they agree move it into
 * `<support>/Extensions/<id>/` in one rename (an update replaces the old folder the same way).
 * Just before, the bundle is compiled into the runtime's code cache, so its first start is as
 * fast as any later one.
 */
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readFile, readlink, rename, rm, rmdir, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { parseManifest, type Manifest } from "@svc/api";
import { precompileExtension } from "@svc/runtime";
import { supportPaths } from "../support/index.js";
import {
  InstallError,
  isOlder,
  PACKAGE_LIMITS,
  summarize,
  type InstalledVersion,
  type InstallSummary,
} from "../review/index.js";
import { readTools } from "../discovery/index.js";
import { unpackedPath, unpackPackage } from "./unpack.js";
import { keepRevocation, Ledger, lostKeyOf, revocationOf, revokedProblem } from "../ledger/index.js";
import { KeyringSecretStore } from "../secrets/index.js";
import { authorOf, checkUnpacked, pinOf, readStatement, type StatementFiles } from "./author.js";
import {
  lostKeySchema,
  parsePublicKey,
  revocationSchema,
  SignatureError,
  STATEMENT_FILES,
  verifyStatement,
  type PackageSignature,
} from "@svc/api/signing";
import { dropStaged, stagePackage } from "./staged.js";

export interface InstallOptions {
  /** The support folder; the extension goes to `<supportDir>/Extensions/<id>/`. */
  supportDir: string;
  /** Shows the summary and answers whether to install. Nothing is installed unless it says true. */
  confirm(summary: InstallSummary): boolean | Promise<boolean>;
  /** Where the approval is recorded; default the support folder's ledger, keyed from the OS secret store. */
  ledger?: Ledger;
  /** The person asked to go back to an older version (`--downgrade`); otherwise an older one is refused. */
  downgrade?: boolean;
  /**
   * Stage an update that gains anything instead of applying it (`svc-host install`): the
   * installed version keeps running until `svc-host accept <id>`. Off for the page, whose
   * review is itself the accept.
   */
  stageWider?: boolean;
  /**
   * The https address the person installed it from (`svc-host install https://…`, the page):
   * recorded in the ledger beside the approval, where "check for updates" looks. Without it an
   * update keeps the address the installed version had. Only the person's install sets it:
   * nothing in a package can.
   */
  address?: string;
  /**
   * "Check for updates" of this id: a package of another id is refused before anything else; a
   * version not newer than the installed one is `upToDate`; with `stageWider`, an update not
   * signed by the pinned key (unsigned, or a handed-over key) is staged whatever it gains.
   */
  updateOf?: string;
}

export interface InstallResult {
  installed: boolean;
  id: string;
  /** Where the extension is (or would have been) installed. */
  path: string;
  summary: InstallSummary;
  /** Where the update was staged instead of installed (it gains something; see `stageWider`). */
  staged?: string;
  /** Why: it can do more, or (`updateOf`) it is not signed by the pinned key. */
  stagedFor?: "more" | "key";
  /** Extensions installed before the permission ledger existed, recorded as they are by this install (once). */
  recordedAsTheyAre?: string[];
  /** With `updateOf`: the package is the installed version or an older one; nothing was changed. */
  upToDate?: { installed: string };
}

/** Reads and checks a package.json; `where` names it in errors. */
async function readManifest(path: string, where: string): Promise<Manifest> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new InstallError(`${where} has no package.json`);
  if (info.size > PACKAGE_LIMITS.manifestBytes) throw new InstallError(`${where}: package.json is larger than 1 MB`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new InstallError(`${where}: package.json is not JSON: ${(error as Error).message}`);
  }
  const parsed = parseManifest(raw);
  if (!parsed.ok) throw new InstallError(`${where}: ${parsed.error}`);
  return parsed.manifest;
}

/**
 * The installed extension with this id, if any (a folder that is not a readable extension counts
 * as none): as the person approved it, when the ledger holds an approval that verifies (its
 * package.json on disk may have been changed since).
 */
async function installedVersion(
  folder: string,
  next: Manifest,
  ledger: () => Promise<Ledger>,
): Promise<(InstalledVersion & { signer?: string; tools?: string[]; address?: string }) | undefined> {
  const exists = await lstat(folder).catch(() => undefined);
  if (!exists) return undefined;
  // `svckit dev`'s link: installing replaces the link (never the developer's folder), which the review says.
  const devLink = exists.isSymbolicLink() ? resolve(dirname(folder), await readlink(folder)) : undefined;
  const standing = await (await ledger()).standing(next.svc.id);
  if (standing.kind === "approved") {
    const manifest = standing.approval.manifest;
    return {
      manifest,
      differentPackage: manifest.name !== next.name,
      signer: standing.approval.signer,
      tools: standing.approval.tools,
      ...(standing.approval.address ? { address: standing.approval.address } : {}),
      ...(devLink ? { devLink } : {}),
    };
  }
  try {
    const manifest = await readManifest(join(folder, "package.json"), "the installed extension");
    return { manifest, differentPackage: manifest.name !== next.name, ...(devLink ? { devLink } : {}) };
  } catch {
    return undefined;
  }
}

/** Moves `staged` to `target`, replacing what is there; on failure the old folder is put back. */
async function swapIn(staged: string, target: string, scratch: string): Promise<void> {
  const old = `${scratch}.old`;
  const hadOld = (await lstat(target).catch(() => undefined)) !== undefined;
  if (hadOld) await rename(target, old);
  try {
    await rename(staged, target);
  } catch (error) {
    if (hadOld) await rename(old, target);
    throw error;
  }
  // A dev link moved aside is only the link: rm does not follow it into the developer's folder.
  if (hadOld) await rm(old, { recursive: true, force: true });
}

/**
 * Keeps the revocation a package carries when its own key signed it (checked again at every load
 * against the pinned key, so one that no pinned key signed never counts).
 */
async function keepCarriedRevocation(
  supportDir: string,
  where: string,
  id: string,
  signature: PackageSignature,
  carried: StatementFiles | undefined,
): Promise<void> {
  if (!carried || signature.kind !== "signed") return;
  try {
    if (verifyStatement(carried.json, carried.minisig, signature.key, revocationSchema).id !== id) return;
  } catch (error) {
    if (error instanceof SignatureError)
      throw new InstallError(`cannot install ${where}: its revocation statement does not verify: ${error.message}`);
    throw error;
  }
  await keepRevocation(supportDir, id, { json: carried.json.toString("utf8"), minisig: carried.minisig });
}

/**
 * Keeps the lost-key statement a package carries when the installed version's key signed it
 * about itself (a new author key's package brings the old key's word); any other is ignored:
 * it proves nothing about this installation.
 */
async function keepCarriedLoss(
  supportDir: string,
  id: string,
  pinned: string | undefined,
  carried: StatementFiles | undefined,
): Promise<void> {
  if (!carried || !pinned) return;
  try {
    const statement = verifyStatement(carried.json, carried.minisig, parsePublicKey(pinned), lostKeySchema);
    if (statement.id !== id || statement.from !== pinned) return;
  } catch (error) {
    if (error instanceof SignatureError) return;
    throw error;
  }
  await keepRevocation(supportDir, id, { json: carried.json.toString("utf8"), minisig: carried.minisig });
}

/**
 * @example
 * const result = await installPackage("deploys-1.2.0.svc", {
 *   supportDir: "/home/ann/.local/share/Svc",
 *   confirm: async (summary) => { console.log(summary.text); return askYesNo("Install?"); },
 * });
 * // { installed: true, id: "com.example.deploys", path: ".../Extensions/com.example.deploys", summary }
 */
export async function installPackage(file: string, options: InstallOptions): Promise<InstallResult> {
  const where = basename(file);
  const staging = join(options.supportDir, ".installing");
  const scratch = join(staging, randomBytes(8).toString("hex"));
  const unpacked = join(scratch, "package");
  try {
    const { files } = await unpackPackage(file, unpacked).catch((error: Error) => {
      throw error instanceof InstallError ? new InstallError(`cannot install ${where}: ${error.message}`) : error;
    });
    // Every file against the signed manifest, before anything is read, shown or moved.
    const signature = await checkUnpacked(unpacked, files, where);
    const manifest = await readManifest(unpackedPath(unpacked, "package.json"), `cannot install ${where}`);
    const id = manifest.svc.id;
    if (options.updateOf !== undefined && id !== options.updateOf)
      throw new InstallError(
        `cannot install ${where}: it is ${JSON.stringify(id)}, not ${options.updateOf}, which this address was installed for; nothing was changed`,
      );
    if (id.startsWith("dev.svc.")) {
      throw new InstallError(
        `cannot install ${where}: "${id}" is a development id (dev.svc.…), only for svckit dev; give it its own id`,
      );
    }
    if (!files.includes("dist/index.js")) {
      throw new InstallError(
        `cannot install ${where}: it has no dist/index.js; build it with svckit build, then svckit pack`,
      );
    }
    const extensions = join(options.supportDir, "Extensions");
    const target = join(extensions, id);
    const { tools } = await readTools(unpacked);
    // Opened only when needed: a declined first install leaves the support folder as it was.
    let ledger = options.ledger;
    const openLedger = async () =>
      (ledger ??= await Ledger.open({ supportRoot: options.supportDir, secrets: new KeyringSecretStore() }));
    const installed = await installedVersion(target, manifest, openLedger);
    const rotation = await readStatement(unpacked, files, STATEMENT_FILES.rotation);
    await keepCarriedLoss(
      options.supportDir,
      id,
      installed?.signer,
      await readStatement(unpacked, files, STATEMENT_FILES.lost),
    );
    const lost = await lostKeyOf(options.supportDir, id, installed?.signer);
    const author = authorOf(signature, installed && { id, signer: installed.signer }, where, rotation, lost);
    await keepCarriedRevocation(
      options.supportDir,
      where,
      id,
      signature,
      await readStatement(unpacked, files, STATEMENT_FILES.revocation),
    );
    const revoked = await revocationOf(options.supportDir, id, manifest.version, pinOf(signature) ?? installed?.signer);
    if (revoked)
      throw new InstallError(
        `cannot install ${where}: ${revokedProblem(revoked, manifest.version).replace(/^not loaded: /, "")}`,
      );
    if (options.updateOf !== undefined && installed && !isOlder(installed.manifest.version, manifest.version)) {
      const summary = summarize(manifest, { supportDir: options.supportDir }, installed, tools, author);
      return { installed: false, id, path: target, summary, upToDate: { installed: installed.manifest.version } };
    }
    if (installed && !options.downgrade && isOlder(manifest.version, installed.manifest.version))
      throw new InstallError(
        `cannot install ${where}: it is version ${manifest.version}, older than the installed ${installed.manifest.version}; ` +
          `to go back to it, run again with --downgrade`,
      );
    const summary = summarize(manifest, { supportDir: options.supportDir }, installed, tools, author);
    const newTools = installed ? tools.filter((tool) => !(installed.tools ?? []).includes(tool.id)) : [];
    const more = Boolean(summary.replaces?.gained.length || newTools.length);
    // What checking for updates applies by itself comes from the very key the person pinned.
    const otherKey = options.updateOf !== undefined && !(author.signed && !author.newToYou);
    if (options.stageWider && installed && (more || otherKey)) {
      const because = more ? "more" : "key";
      const staged = await stagePackage(file, options.supportDir, id, { version: manifest.version, because });
      return { installed: false, id, path: target, summary, staged, stagedFor: because };
    }
    if (!(await options.confirm(summary))) return { installed: false, id, path: target, summary };
    const code = await readFile(unpackedPath(unpacked, "dist/index.js"), "utf8");
    await precompileExtension(supportPaths(options.supportDir).data, id, code);
    await mkdir(extensions, { recursive: true });
    // Recorded before the folder moves in: a running host that sees the new folder finds it approved.
    const approvals = await openLedger();
    const before = await approvals.entryOf(id);
    const signer = pinOf(signature);
    const address = options.address ?? installed?.address;
    const approval = await approvals.current({ id, folder: unpacked, manifest, tools });
    await approvals.record({ ...approval, ...(signer ? { signer } : {}), ...(address ? { address } : {}) });
    try {
      await swapIn(unpacked, target, scratch);
    } catch (error) {
      await approvals.restore(id, before);
      throw error;
    }
    await dropStaged(options.supportDir, id);
    const recorded = approvals.migrated.filter((other) => other !== id);
    return { installed: true, id, path: target, summary, ...(recorded.length ? { recordedAsTheyAre: recorded } : {}) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rmdir(staging).catch(() => undefined); // only when empty: another install may be under way
  }
}
