/**
 * `svckit pack [dir]`: build, then write `<name>-<version>.svc` for people to install.
 */
import { resolve } from "node:path";
import { defineCommand } from "../command.js";
import { packExtension } from "../pack/pack-extension.js";
import { projectDir } from "../project.js";
import { PASSPHRASE_ENV, PUBLIC_KEY_FILE } from "../sign/keys.js";
import { signingKey } from "../sign/signer.js";

export const pack = defineCommand({
  name: "pack",
  summary: "build, then write <name>-<version>.svc, the file people install",
  details: [
    "The .svc file is a zip of package.json, dist/ (without source maps), and the README and",
    "licence when present. Ids beginning dev.svc. are refused. The same files give the same bytes.",
    `It is signed when the project has ${PUBLIC_KEY_FILE} (svckit keygen) or --key is given: svc-manifest.json`,
    "lists the SHA-256 of every file, svc-manifest.json.minisig is its minisign signature.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    key: {
      type: "string",
      valueName: "path",
      description: `sign with this key file (svckit keygen --file; passphrase from ${PASSPHRASE_ENV})`,
    },
  },
  examples: ["svckit pack", `${PASSPHRASE_ENV}=… svckit pack --key ~/keys/svc-author.key`],
  async run({ positionals, options }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    await packExtension(dir, dir, ctx.out, async () =>
      // The key is found before anything is written: a missing secret leaves no unsigned package behind.
      signingKey(dir, options.key === undefined ? undefined : resolve(ctx.cwd, options.key), ctx.env),
    );
  },
});
