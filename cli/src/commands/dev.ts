/**
 * `svckit dev [dir]`: watch build plus a dev link into the app's Extensions folder, so the
 * app hot-reloads the extension on every save, and the app's runtime logs of the extension
 * (denials with their fix, dropped payloads, heap and CPU) streamed to the terminal.
 */
import { defineCommand, type CommandContext } from "../command.js";
import { CliError } from "../errors.js";
import { linkExtension, unlinkExtension, watchLink } from "../dev/link.js";
import { watchExtension } from "../dev/watch.js";
import { followLogs } from "../dev/log-follow.js";
import { formatEvent, painter } from "../dev/log-format.js";
import { projectDir, readProject } from "../project.js";
import { supportFolder } from "../support-folder.js";

export const dev = defineCommand({
  name: "dev",
  summary: "rebuild on every change and link the extension into the app",
  details: [
    "Rebuilds like `svckit build` whenever src/ or package.json changes (problems are printed,",
    "watching goes on), and links the folder as <support>/Extensions/<id>; the app reloads",
    "the extension when dist/ or package.json changes (once per save, with the new bundle; a",
    "package.json saved broken leaves the last good version running). Errors the code throws",
    "are shown with their frames in src/. The app's runtime logs of the extension are streamed",
    "(GET /v1/logs): its log lines, fence denials with the manifest line that allows them,",
    "dropped payloads with their field path, interrupted slices, memory-limit hits, and each",
    "status change with heap and CPU. Without a running app it says so once and connects when",
    "one starts. Ctrl-C (or SIGTERM, SIGHUP) stops watching and removes the link.",
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
      throw new CliError(
        `package.json has no svc.id: the dev link is named after it. Add "svc": {"id": "com.you.name", …}.`,
      );
    }
    const watcher = await watchExtension(dir, ctx.out);
    const stopFollowing = new AbortController();
    let following: Promise<void> | undefined;
    let stopWatchingLink = () => {};
    try {
      await watcher.ready;
      const support = supportFolder(ctx.env);
      const { link, replaced } = await linkExtension(support, id, dir);
      if (replaced) ctx.out.warn(`replaced the dev link to ${replaced}`);
      ctx.out.info(`linked ${link} → ${dir}`);
      following = streamLogs(support, id, ctx, stopFollowing.signal);
      stopWatchingLink = watchLink(link, dir, (now) =>
        ctx.out.warn(
          `${link} no longer links here: it is now ${now}. Saves here no longer reach the app; restart svckit dev to link this folder again.`,
        ),
      );
      ctx.out.info("watching for changes; press Ctrl-C to stop");
      await untilAborted(ctx.signal);
      stopFollowing.abort();
      await following;
      if (await unlinkExtension(link, dir)) ctx.out.info(`removed ${link}`);
    } finally {
      stopWatchingLink();
      stopFollowing.abort();
      await following;
      await watcher.stop();
    }
  },
});

/** Prints the app's log stream for `id` until `signal` aborts; says once when no app runs. */
function streamLogs(support: string, id: string, ctx: CommandContext, signal: AbortSignal): Promise<void> {
  const paint = painter(ctx.color === true);
  let saidWaiting = false;
  return followLogs({
    support,
    extensionId: id,
    signal,
    onEvent: (event) => {
      for (const line of formatEvent(event, paint)) ctx.out.info(line);
    },
    onState: (change) => {
      if (change.state === "connected") {
        saidWaiting = false;
        ctx.out.info(`streaming the runtime's logs of ${id} from the app on 127.0.0.1:${change.port}`);
      } else if (change.state === "lost") {
        saidWaiting = true;
        ctx.out.info("the app stopped; its logs will stream again when it is back");
      } else if (!saidWaiting) {
        saidWaiting = true;
        ctx.out.info(`no app is running (${change.reason.split("\n")[0]}); its logs will stream once it starts`);
      }
    },
  });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
