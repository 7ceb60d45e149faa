/**
 * `svckit revoke --up-to <version> --reason <text> [--key <file>] [dir]`: says, signed with the
 * project's key, that every version up to one is bad. Writes `svc-revocation.json` + `.minisig`:
 * later packages carry it, and people can import it on its own (`svc-host revoke <file>`).
 */
import { resolve } from "node:path";
import { STATEMENT_FILES } from "@svc/api/signing";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { projectDir } from "../project.js";
import { describeKey } from "../sign/describe-key.js";
import { PASSPHRASE_ENV, PUBLIC_KEY_FILE } from "../sign/keys.js";
import { signingKey } from "../sign/signer.js";
import { checkedReason, projectId, writeStatement } from "../sign/statement-files.js";

export const revoke = defineCommand({
  name: "revoke",
  summary: "say, signed, that versions up to one are bad: svc turns them off",
  details: [
    `Writes ${STATEMENT_FILES.revocation} (and .minisig), signed with the key ${PUBLIC_KEY_FILE} names. The next`,
    "package carries it; people can also import the two files with svc-host revoke. Nothing expires.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    "up-to": { type: "string", valueName: "version", description: "every version at or below this one is bad" },
    reason: { type: "string", valueName: "text", description: "why, shown to people (up to 300 characters)" },
    key: { type: "string", valueName: "path", description: `the key file (passphrase from ${PASSPHRASE_ENV})` },
  },
  examples: ['svckit revoke --up-to 1.2.0 --reason "it sent tokens to the wrong host"'],
  async run({ positionals, options }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    const upTo = options["up-to"];
    const reason = options.reason;
    if (upTo === undefined || reason === undefined)
      throw CliError.usage("give both --up-to <version> and --reason <text>", "revoke");
    checkedReason(reason);
    const secret = await signingKey(
      dir,
      options.key === undefined ? undefined : resolve(ctx.cwd, options.key),
      ctx.env,
    );
    if (!secret)
      throw new CliError(`there is no ${PUBLIC_KEY_FILE} here: run svckit keygen, and sign your packages first`);
    const id = await projectId(dir);
    await writeStatement(dir, STATEMENT_FILES.revocation, { v: 1, kind: "revoke", id, upTo, reason }, secret);
    ctx.out.info(
      `${STATEMENT_FILES.revocation}: ${id} versions up to ${upTo} are bad, signed with key ${describeKey(secret)}`,
    );
  },
});
