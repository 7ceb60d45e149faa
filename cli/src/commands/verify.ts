/**
 * `svckit verify <file.svc>`: who signed a package and whether every file in it is what they
 * signed — the same check the app makes before it installs.
 */
import { resolve } from "node:path";
import { checkPackage, SignatureError } from "@svc/api/signing";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { zipContents } from "../pack/zip-entries.js";
import { describeKey } from "../sign/describe-key.js";

export const verify = defineCommand({
  name: "verify",
  summary: "show who signed a .svc and whether every file matches what they signed",
  details: ["Exits 1 when the package is unsigned or any file does not match its signed manifest."],
  positionals: [{ name: "file", description: "the .svc file", required: true }],
  options: {},
  examples: ["svckit verify my-ext-1.0.0.svc"],
  async run({ positionals }, ctx) {
    const path = resolve(ctx.cwd, positionals[0]);
    let contents: Map<string, Buffer>;
    try {
      contents = await zipContents(path);
    } catch (error) {
      throw new CliError(`cannot read ${path} as a .svc package (a zip file): ${(error as Error).message}`);
    }
    let signature;
    try {
      signature = checkPackage(contents);
    } catch (error) {
      if (error instanceof SignatureError) throw new CliError(`${positionals[0]}: refused: ${error.message}`);
      throw error;
    }
    if (signature.kind === "unsigned")
      throw new CliError(
        `${positionals[0]}: unsigned: anyone could have made this. Its author can sign it: svckit keygen, then svckit pack.`,
      );
    ctx.out.info(`${signature.id} ${signature.version}`);
    ctx.out.info(`signed by key ${describeKey(signature.key)}`);
    ctx.out.info(`all ${signature.files.length} files match the signed manifest`);
  },
});
