/**
 * `svc-host revoke <svc-revocation.json>`: imports an author's revocation on its own (its
 * `.minisig` beside it). It counts only when signed by the key pinned for the extension; the
 * versions it names are then not loaded (ledger/revocations.ts), and nothing is deleted.
 */
import { readFile } from "node:fs/promises";
import { escapeForDisplay } from "@svc/api";
import { parsePublicKey, revocationSchema, SignatureError, verifyStatement } from "@svc/api/signing";
import { keepRevocation, Ledger } from "../ledger/index.js";
import { KeyringSecretStore } from "../secrets/index.js";
import { shownKey } from "./author.js";
import type { InstallIo } from "./install-command.js";
import { isOlder } from "../review/index.js";

export const REVOKE_USAGE = "usage: svc-host revoke <svc-revocation.json>  (its .minisig beside it)";

class RevokeError extends Error {}

async function readBoth(file: string): Promise<{ json: Buffer; minisig: string }> {
  try {
    return { json: await readFile(file), minisig: await readFile(`${file}.minisig`, "utf8") };
  } catch (error) {
    throw new RevokeError(`cannot read ${file} and ${file}.minisig: ${(error as Error).message}`);
  }
}

/** @example await runRevokeCommand(["svc-revocation.json"], terminalIo(supportRoot())); // 0 */
export async function runRevokeCommand(argv: readonly string[], io: InstallIo): Promise<number> {
  if (argv.length !== 1 || argv[0].startsWith("-")) {
    io.err(`svc-host revoke: give exactly one statement file\n${REVOKE_USAGE}\n`);
    return 2;
  }
  const [file] = argv;
  try {
    const stored = await readBoth(file);
    let id: string;
    try {
      id = revocationSchema.parse(JSON.parse(stored.json.toString("utf8"))).id;
    } catch (error) {
      throw new RevokeError(
        `${file} is not a revocation statement (svckit revoke writes one): ${(error as Error).message}`,
      );
    }
    const ledger = await Ledger.open({ supportRoot: io.supportDir, secrets: new KeyringSecretStore() });
    const standing = await ledger.standing(id);
    const signer = standing.kind === "approved" ? standing.approval.signer : undefined;
    if (standing.kind !== "approved" || !signer)
      throw new RevokeError(
        `${id} is not installed from a signed package here: a revocation counts only against the key you installed it with`,
      );
    let statement;
    try {
      statement = verifyStatement(stored.json, stored.minisig, parsePublicKey(signer), revocationSchema);
    } catch (error) {
      if (error instanceof SignatureError)
        throw new RevokeError(
          `this is not from the author you installed (key ${shownKey(signer)}): ${error.message}; nothing was changed`,
        );
      throw error;
    }
    await keepRevocation(io.supportDir, id, { json: stored.json.toString("utf8"), minisig: stored.minisig });
    const installed = standing.approval.version;
    const hit = !isOlder(statement.upTo, installed);
    io.out(
      `${escapeForDisplay(
        `Revoked by its author (key ${shownKey(signer)}): ${id} versions up to ${statement.upTo}, saying: "${statement.reason}". ` +
          (hit
            ? `The installed ${installed} is not loaded from now on (svc applies it when it next loads it); its data is kept.`
            : `The installed ${installed} is later, so it is not affected.`),
      )}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RevokeError) {
      io.err(`svc-host revoke: ${escapeForDisplay(error.message)}\n`);
      return 1;
    }
    io.err(`svc-host revoke: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}
