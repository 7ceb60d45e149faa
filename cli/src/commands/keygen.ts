/**
 * `svckit keygen [dir]`: makes the author's Ed25519 key. The public half goes beside the project
 * as `svc-key.pub` (minisign's format); the secret half to the OS secret store, or with `--file`
 * to a file (encrypted with SVC_KEY_PASSPHRASE unless `--unencrypted`).
 */
import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { formatPublicKey } from "@svc/api/signing";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../files.js";
import { projectDir } from "../project.js";
import { describeKey } from "../sign/describe-key.js";
import { keyFileText, newSecretKey, PASSPHRASE_ENV, PUBLIC_KEY_FILE, storeInKeyring } from "../sign/keys.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

export const keygen = defineCommand({
  name: "keygen",
  summary: "make your signing key: svc-key.pub beside the project, the secret in the OS secret store",
  details: [
    "Packages signed with it tell people they come from you, and the app accepts updates only",
    "from the key it first installed. Keep the secret key: without it you cannot sign updates.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    file: {
      type: "string",
      valueName: "path",
      description: `keep the secret key in this file, encrypted with ${PASSPHRASE_ENV}`,
    },
    unencrypted: {
      type: "boolean",
      description: "with --file: keep the secret key in the clear (only where the file is protected otherwise)",
    },
  },
  examples: ["svckit keygen", `${PASSPHRASE_ENV}=… svckit keygen --file ~/keys/svc-author.key`],
  async run({ positionals, options }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    const passphrase = ctx.env[PASSPHRASE_ENV];
    if (options.unencrypted && options.file === undefined)
      throw CliError.usage(
        "--unencrypted goes with --file <path>: the OS secret store protects the key itself",
        "keygen",
      );
    if (options.file !== undefined && !options.unencrypted && !passphrase)
      throw new CliError(
        `--file needs a passphrase: set ${PASSPHRASE_ENV}, or add --unencrypted to keep the key in the clear`,
      );
    const publicPath = join(dir, PUBLIC_KEY_FILE);
    if (await exists(publicPath))
      throw new CliError(
        `${publicPath} exists: this project has a key already. People who installed a package signed with it refuse ` +
          `updates signed with another, so keep it. To start over anyway, delete ${PUBLIC_KEY_FILE} first.`,
      );
    const filePath = options.file === undefined ? undefined : resolve(ctx.cwd, options.file);
    if (filePath && (await exists(filePath)))
      throw new CliError(`${filePath} exists: choose another path, nothing was overwritten`);
    const secret = newSecretKey();
    if (filePath)
      await writeFileAtomic(filePath, keyFileText(secret, options.unencrypted ? undefined : passphrase), 0o600);
    else await storeInKeyring(secret);
    const publicText = formatPublicKey(secret);
    await writeFileAtomic(publicPath, publicText);
    ctx.out.info(`${PUBLIC_KEY_FILE}: ${publicText.split("\n")[1]}`);
    ctx.out.info(`key ${describeKey(secret)}`);
    ctx.out.info(
      filePath
        ? `secret key: ${filePath}${options.unencrypted ? " (NOT encrypted: anyone who reads it can sign as you)" : ` (encrypted with ${PASSPHRASE_ENV})`}`
        : "secret key: in the OS secret store",
    );
    ctx.out.info(
      `svckit pack now signs. Keep a copy of the secret key: updates signed with any other key are refused.`,
    );
  },
});
