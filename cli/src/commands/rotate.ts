/**
 * `svckit rotate --to <new svc-key.pub> [--key <old key file>] [dir]`: hands the extension over
 * to a new key. Signs a rotation statement with the current key (the one people pinned), writes
 * it as `svc-rotation.json` + `.minisig` (packed into every later package), and makes the new
 * key the project's `svc-key.pub`, so `svckit pack` signs with it from then on.
 *
 * With `--lost-after <version> --reason <text>` the old key is lost (someone else may hold it):
 * the statement is `svc-key-lost.json`, which also disowns every version the old key signs after
 * that one (`@svc/api/signing` lostKeySchema).
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { formatPublicKey, parsePublicKey, SignatureError, STATEMENT_FILES, type PublicKey } from "@svc/api/signing";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../files.js";
import { projectDir } from "../project.js";
import { describeKey } from "../sign/describe-key.js";
import { PASSPHRASE_ENV, PUBLIC_KEY_FILE } from "../sign/keys.js";
import { signingKey } from "../sign/signer.js";
import { checkedReason, projectId, writeStatement } from "../sign/statement-files.js";

const keyLine = (key: PublicKey) => formatPublicKey(key).split("\n")[1];

export const rotate = defineCommand({
  name: "rotate",
  summary: "hand the extension over to a new key, signed by the current one",
  details: [
    `Writes ${STATEMENT_FILES.rotation} (and .minisig), signed with the key ${PUBLIC_KEY_FILE} names, and makes`,
    `the new key ${PUBLIC_KEY_FILE}. Packages carry the statement, so people who installed a version`,
    "signed with the old key accept updates signed with the new one.",
    `When the old key is lost (someone else may have it), add --lost-after and --reason: ${STATEMENT_FILES.lost}`,
    "then also turns off every version the old key signs after that one (people can import it with",
    "svc-host revoke before your next package reaches them).",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    to: { type: "string", valueName: "path", description: "the new key's public file (svckit keygen made it)" },
    key: {
      type: "string",
      valueName: "path",
      description: `the current key's file (passphrase from ${PASSPHRASE_ENV}); default the OS secret store`,
    },
    "lost-after": {
      type: "string",
      valueName: "version",
      description: "the old key is lost: versions it signs after this one are not yours",
    },
    reason: { type: "string", valueName: "text", description: "with --lost-after: why, shown to people" },
  },
  examples: [
    "svckit rotate --to ../new-key/svc-key.pub --key ~/keys/old.key",
    'svckit rotate --to ../new-key/svc-key.pub --lost-after 1.2.0 --reason "my laptop was stolen"',
  ],
  async run({ positionals, options }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    if (options.to === undefined) throw CliError.usage("give the new key: --to <svc-key.pub>", "rotate");
    const lostAfter = options["lost-after"];
    if ((lostAfter === undefined) !== (options.reason === undefined))
      throw CliError.usage("a lost key needs both --lost-after <version> and --reason <text>", "rotate");
    const toPath = resolve(ctx.cwd, options.to);
    let to: PublicKey;
    try {
      to = parsePublicKey(await readFile(toPath, "utf8"));
    } catch (error) {
      if (error instanceof SignatureError) throw new CliError(`${toPath}: ${error.message}`);
      throw new CliError(`cannot read ${toPath}: ${(error as Error).message}`);
    }
    const current = await signingKey(
      dir,
      options.key === undefined ? undefined : resolve(ctx.cwd, options.key),
      ctx.env,
    );
    if (!current)
      throw new CliError(
        `there is no ${PUBLIC_KEY_FILE} here: nothing was signed yet, so there is no key to hand over`,
      );
    if (current.key.equals(to.key)) throw new CliError(`${toPath} is the current key: give the new one`);
    const id = await projectId(dir);
    const keys = { id, from: keyLine(current), to: keyLine(to) };
    if (lostAfter === undefined) {
      await writeStatement(dir, STATEMENT_FILES.rotation, { v: 1, kind: "rotate", ...keys }, current);
      ctx.out.info(
        `${STATEMENT_FILES.rotation}: ${id} moves from key ${describeKey(current)} to key ${describeKey(to)}`,
      );
    } else {
      const reason = checkedReason(options.reason!);
      await writeStatement(
        dir,
        STATEMENT_FILES.lost,
        { v: 1, kind: "lost", ...keys, after: lostAfter, reason },
        current,
      );
      ctx.out.info(
        `${STATEMENT_FILES.lost}: key ${describeKey(current)} of ${id} is lost after ${lostAfter}; ${id} moves to key ${describeKey(to)}`,
      );
    }
    await writeFileAtomic(join(dir, PUBLIC_KEY_FILE), formatPublicKey(to));
    ctx.out.info(`${PUBLIC_KEY_FILE} is now the new key: sign with it (svckit pack --key <its file>).`);
  },
});
