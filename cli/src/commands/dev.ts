/**
 * `svckit dev [dir]`: watch build plus a dev link into the app's Extensions folder, so the
 * app hot-reloads the extension on every save.
 */
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { linkExtension, unlinkExtension } from "../dev/link.js";
import { watchExtension } from "../dev/watch.js";
import { projectDir, readProject } from "../project.js";
import { supportFolder } from "../support-folder.js";

export const dev = defineCommand({
  name: "dev",
  summary: "rebuild on every change and link the extension into the app",
  details: [
    "Rebuilds like `svckit build` whenever src/ or package.json changes (problems are printed,",
    "watching goes on), and links the folder as <support>/Extensions/<id>; the app reloads",
    "the extension when dist/ changes. Ctrl-C stops watching and removes the link.",
    "Support folder: SVC_HOME, else the platform's default.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {},
  examples: ["svckit dev", "SVC_HOME=/tmp/svc svckit dev ./my-extension"],
  async run({ positionals }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    const { packageJson } = await readProject(dir);
    const id = (packageJson.svc as { id?: unknown } | undefined)?.id;
    if (typeof id !== "string" || id === "") {
      throw new CliError(`package.json has no svc.id: the dev link is named after it. Add "svc": {"id": "com.you.name", …}.`);
    }
    const watcher = await watchExtension(dir, ctx.out);
    try {
      await watcher.ready;
      const { link, replaced } = await linkExtension(supportFolder(ctx.env), id, dir);
      if (replaced) ctx.out.warn(`replaced the dev link to ${replaced}`);
      ctx.out.info(`linked ${link} → ${dir}`);
      // TODO(host): stream the runtime's log lines for this extension here once the host
      // exposes them; until then, `svckit validate` shows what update() does.
      ctx.out.info("runtime logs are not streamed yet (the app does not offer them); use `svckit validate` to run update().");
      ctx.out.info("watching for changes; press Ctrl-C to stop");
      await untilAborted(ctx.signal);
      if (await unlinkExtension(link, dir)) ctx.out.info(`removed ${link}`);
    } finally {
      await watcher.stop();
    }
  },
});

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
