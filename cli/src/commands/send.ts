/**
 * `svckit send <file.json | ->`: pushes one payload (or an array of them) to the running app
 * over its local HTTP server, as `POST /v1/blips`.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { supportFolder } from "../support-folder.js";
import { callApp, errorText, readWebhookConfig } from "../webhook-client.js";

export const send = defineCommand({
  name: "send",
  summary: "POST a blip payload (or an array of them) to the running app",
  details: [
    "Reads the port and token from webhook.json in the support folder on every run",
    "(SVC_HOME, else the platform's default), so a relaunched app is picked up at once.",
  ],
  positionals: [{ name: "file", description: "a JSON file, or - to read standard input", required: true }],
  options: {},
  examples: [
    `svckit send blip.json`,
    `echo '{"title":"Deploy","layout":"progress","data":{"fraction":0.5,"step":"Tests"}}' | svckit send -`,
  ],
  async run({ positionals }, ctx) {
    const [file] = positionals;
    const text = file === "-" ? await ctx.readStdin() : await readInput(resolve(ctx.cwd, file));
    const source = file === "-" ? "standard input" : file;
    try {
      JSON.parse(text);
    } catch (error) {
      throw new CliError(`${source} is not JSON: ${(error as Error).message}`);
    }
    const config = await readWebhookConfig(supportFolder(ctx.env));
    const answer = await callApp(config, "pushBlips", {}, text);
    if (answer.status === 200) {
      const blips = sentBlips(answer.body);
      for (const blip of blips) ctx.out.info(`sent ${blip.id} (seq ${blip.seq})`);
      if (blips.length === 0) ctx.out.info("sent");
      return;
    }
    if (answer.status === 401) {
      throw new CliError(
        `the app refused the token from ${config.path} (401): the file is stale. Restart the app so it writes a fresh one.`,
      );
    }
    if (answer.status === 400) throw new CliError(`the app rejected the payload: ${errorText(answer.body)}`);
    throw new CliError(`the app answered ${answer.status}: ${errorText(answer.body)}`);
  },
});

async function readInput(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliError(`no such file: ${path}`);
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The `{id, seq}` list of DESIGN.md's 200 answer; tolerant of a body without it. */
function sentBlips(body: unknown): Array<{ id: string; seq: number }> {
  const blips = (body as { blips?: unknown } | undefined)?.blips;
  if (!Array.isArray(blips)) return [];
  return blips.filter((b): b is { id: string; seq: number } => typeof b?.id === "string");
}
