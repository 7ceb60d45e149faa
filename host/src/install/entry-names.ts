/**
 * Which names a zip entry may have: a plain relative path inside the extension's folder. The
 * name is checked as the archive spells it, before any library "fixes" it (yauzl would turn
 * backslashes into slashes), so a hostile name is refused rather than rewritten.
 */
import { InstallError } from "../review/index.js";

/** Unix file-type bits in the high half of a zip entry's external attributes. */
const TYPE_MASK = 0o170000;
const SYMLINK = 0o120000;

/**
 * The entry's name as text: UTF-8 when the entry says so (flag bit 11), else it must be plain
 * ASCII (the legacy code page of zip is refused rather than guessed).
 */
export function decodeEntryName(raw: Buffer, flags: number): string {
  const utf8 = (flags & 0x800) !== 0;
  if (!utf8 && raw.some((byte) => byte >= 0x80))
    throw new InstallError(`refused: an entry name is not UTF-8 (${raw.toString("latin1")})`);
  const name = raw.toString("utf8");
  if (utf8 && Buffer.compare(Buffer.from(name, "utf8"), raw) !== 0)
    throw new InstallError("refused: an entry name is not valid UTF-8");
  return name;
}

/**
 * Throws `InstallError` unless `name` stays inside the folder it is unpacked into.
 *
 * @example
 * checkEntryName("dist/index.js");   // ok
 * checkEntryName("../.bashrc");      // throws: entry "../.bashrc" would be written outside the extension's folder
 */
export function checkEntryName(name: string): void {
  const shown = JSON.stringify(name);
  if (name.length === 0 || name.length > 512)
    throw new InstallError(`refused: entry ${shown} has an empty or over-long name`);
  if (/[\u0000-\u001f]/.test(name))
    throw new InstallError(`refused: entry ${shown} has control characters in its name`);
  if (name.includes("\\")) throw new InstallError(`refused: entry ${shown} uses backslashes in its path`);
  if (/^[A-Za-z]:/.test(name)) throw new InstallError(`refused: entry ${shown} names a drive`);
  if (name.startsWith("/")) throw new InstallError(`refused: entry ${shown} has an absolute path`);
  const parts = name.replace(/\/$/, "").split("/");
  if (parts.includes(".."))
    throw new InstallError(`refused: entry ${shown} would be written outside the extension's folder`);
  if (parts.some((part) => part === "" || part === "."))
    throw new InstallError(`refused: entry ${shown} has an empty or "." path part`);
}

/**
 * Throws `InstallError` when the entry is a symbolic link (or any special file): a link inside
 * an extension could point anywhere on the disk.
 */
export function checkEntryKind(name: string, externalAttributes: number): void {
  // Unix mode bits sit in the high 16 bits whatever "made by" claims; the unpacker never
  // creates links anyway, but a package that carries one is refused outright.
  const type = (externalAttributes >>> 16) & TYPE_MASK;
  if (type === SYMLINK) throw new InstallError(`refused: entry ${JSON.stringify(name)} is a symbolic link`);
  if (type !== 0 && type !== 0o100000 && type !== 0o040000)
    throw new InstallError(`refused: entry ${JSON.stringify(name)} is not a plain file or folder`);
}
