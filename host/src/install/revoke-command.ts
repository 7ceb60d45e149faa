/**
 * `svc-host revoke [--file] <statement.json>`: imports an author's revocation
 * (`svc-revocation.json`) or lost-key statement (`svc-key-lost.json`) on its own, its `.minisig`
 * beside it. It counts only when signed by the key pinned for the extension; the versions it
 * names are then not loaded (ledger/revocations.ts), and nothing is deleted. A lost key also
 * hands the extension to the author's new key: the next update must be signed by it.
 */
import { readFile } from "node:fs/promises";
import { escapeForDisplay } from "@svc/api";
import {
  lostKeySchema,
  parsePublicKey,
  revocationSchema,
  SignatureError,
  verifyStatement,
  type LostKey,
  type Revocation,
} from "@svc/api/signing";
import { keepRevocation, Ledger, shownKey } from "../ledger/index.js";
import { KeyringSecretStore } from "../secrets/index.js";
import type { InstallIo } from "./install-command.js";
import { isOlder } from "../review/index.js";
import { crashText, errorLine } from "../support/index.js";

export const REVOKE_USAGE =
  "usage: svc-host revoke [--file] <svc-revocation.json | svc-key-lost.json>  (its .minisig beside it)";

class RevokeError extends Error {}

async function readBoth(file: string): Promise<{ json: Buffer; minisig: string }> {
  try {
    return { json: await readFile(file), minisig: await readFile(`${file}.minisig`, "utf8") };
  } catch (error) {
    throw new RevokeError(`cannot read ${file} and ${file}.minisig: ${(error as Error).message}`);
  }
}

/** What the person reads once a statement is kept. */
function imported(statement: Revocation | LostKey, id: string, signer: string, installed: string): string {
  const effect = (hit: boolean, later: string) =>
    hit
      ? `The installed ${installed} is not loaded from now on (svc applies it when it next loads it); its data is kept.`
      : `The installed ${installed} ${later}, so it is not affected.`;
  if (statement.kind === "lost")
    return (
      `Key ${shownKey(signer)} of ${id} is lost, says its author (signed with it): "${statement.reason}". ` +
      `Versions signed with it after ${statement.after} are not loaded or installed, and updates are taken only from key ${shownKey(statement.to)}. ` +
      effect(isOlder(statement.after, installed), "is not later than that")
    );
  return (
    `Revoked by its author (key ${shownKey(signer)}): ${id} versions up to ${statement.upTo}, saying: "${statement.reason}". ` +
    effect(!isOlder(statement.upTo, installed), "is later")
  );
}

/** @example await runRevokeCommand(["svc-revocation.json"], terminalIo(supportRoot())); // 0 */
export async function runRevokeCommand(argv: readonly string[], io: InstallIo): Promise<number> {
  const words = argv[0] === "--file" ? argv.slice(1) : argv;
  if (words.length !== 1 || words[0].startsWith("-")) {
    io.err(`svc-host revoke: give exactly one statement file\n${REVOKE_USAGE}\n`);
    return 2;
  }
  const [file] = words;
  try {
    const stored = await readBoth(file);
    let id: string;
    let schema: typeof revocationSchema | typeof lostKeySchema;
    try {
      const raw = JSON.parse(stored.json.toString("utf8")) as { kind?: unknown };
      schema = raw.kind === "lost" ? lostKeySchema : revocationSchema;
      id = schema.parse(raw).id;
    } catch (error) {
      throw new RevokeError(
        `${file} is not a revocation or lost-key statement (svckit revoke and svckit rotate --lost-after write them): ${(error as Error).message}`,
      );
    }
    const ledger = await Ledger.open({ supportRoot: io.supportDir, secrets: new KeyringSecretStore() });
    const standing = await ledger.standing(id);
    const signer = standing.kind === "approved" ? standing.approval.signer : undefined;
    if (standing.kind !== "approved" || !signer)
      throw new RevokeError(
        `${id} is not installed from a signed package here: a revocation counts only against the key you installed it with`,
      );
    let statement: Revocation | LostKey;
    try {
      statement = verifyStatement<Revocation | LostKey>(stored.json, stored.minisig, parsePublicKey(signer), schema);
      if (statement.kind === "lost" && statement.from !== signer)
        throw new SignatureError(`it says key ${shownKey(statement.from)} is lost, not the key that signed it`);
    } catch (error) {
      if (error instanceof SignatureError)
        throw new RevokeError(
          `this is not from the author you installed (key ${shownKey(signer)}): ${error.message}; nothing was changed`,
        );
      throw error;
    }
    await keepRevocation(io.supportDir, id, { json: stored.json.toString("utf8"), minisig: stored.minisig });
    io.out(`${escapeForDisplay(imported(statement, id, signer, standing.approval.version))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof RevokeError) {
      io.err(errorLine("svc-host revoke", error));
      return 1;
    }
    io.err(crashText("svc-host revoke", error));
    return 1;
  }
}
