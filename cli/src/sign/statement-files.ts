/**
 * Writes an author's signed statement (`@svc/api/signing` statements: a key rotation or a
 * revocation) into the project, where `svckit pack` picks it up: `<name>` and `<name>.minisig`.
 */
import { join } from "node:path";
import { signStatement, type SecretKey, type Statement } from "@svc/api/signing";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../files.js";
import { readProject } from "../project.js";

/** The project's `svc.id`, which every statement names. */
export async function projectId(dir: string): Promise<string> {
  const { packageJson } = await readProject(dir);
  const id = (packageJson.svc as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !id)
    throw new CliError(`${join(dir, "package.json")} has no svc.id to sign a statement for`);
  return id;
}

/** A statement's reason as people read it: one line of at most 300 characters (the schema's limit). */
export function checkedReason(reason: string): string {
  if (reason.length > 300 || /[\u0000-\u001f\u007f]/.test(reason))
    throw new CliError("--reason must be one line of at most 300 characters");
  return reason;
}

/** Signs `statement` with `secret` and writes it as `<dir>/<name>` with its signature beside it. */
export async function writeStatement(
  dir: string,
  name: string,
  statement: Statement,
  secret: SecretKey,
): Promise<void> {
  const { json, minisig } = signStatement(statement, secret);
  await writeFileAtomic(join(dir, name), json);
  await writeFileAtomic(join(dir, `${name}.minisig`), minisig);
}
