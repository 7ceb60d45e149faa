/**
 * `svc-host install <file.svc> [--yes]`: prints the summary, asks y/N on a terminal, installs.
 * Without a terminal to ask on, it refuses unless `--yes` says the person already agreed.
 * Returns the exit code; only the CLI entry (main.ts) touches process.argv and process.exit.
 */
import { escapeForDisplay } from "@svc/api";
import { createInterface } from "node:readline/promises";
import { InstallError } from "../review/index.js";
import { installPackage } from "./install-package.js";
import { migrationNote } from "../ledger/index.js";
import { stagedPath } from "./staged.js";
import { fetchPackage, isAddress } from "./fetch-package.js";
import { crashText, errorLine } from "../support/index.js";

/** What the command needs from the world (a terminal, or a test). */
export interface InstallIo {
  /** The support folder (SVC_HOME or the platform default). */
  supportDir: string;
  out(text: string): void;
  err(text: string): void;
  /** True when stdin is a terminal a person can answer on. */
  isTTY: boolean;
  /** Asks a question and resolves with the answer line. */
  ask(question: string): Promise<string>;
}

export const INSTALL_USAGE =
  "usage: svc-host install <file.svc | https://…/x.svc | catalog name> [--yes] [--downgrade]";

/**
 * The process's terminal as `InstallIo`.
 *
 * @example
 * process.exitCode = await runInstallCommand(process.argv.slice(3), terminalIo(supportRoot()));
 */
export function terminalIo(supportDir: string): InstallIo {
  return {
    supportDir,
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    isTTY: process.stdin.isTTY === true,
    async ask(question) {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}

/**
 * @param argv the words after `install`: a file and optionally `--yes` (or `-y`) and `--downgrade`
 *   (go back to an older version than the installed one).
 * @example
 * await runInstallCommand(["deploys-1.2.0.svc"], io);          // asks "Install Deploys 1.2.0? [y/N] "
 * await runInstallCommand(["deploys-1.2.0.svc", "--yes"], io); // installs after printing the summary
 */
export async function runInstallCommand(argv: readonly string[], io: InstallIo): Promise<number> {
  return installCommand(argv, io, "install");
}

/**
 * `svc-host accept <id> [--yes]` when an update of `id` is staged: shows its review again and
 * installs it from `<support>/Staged/` (every check runs again; the staged copy is then dropped).
 */
export async function runAcceptStagedCommand(id: string, yes: boolean, io: InstallIo): Promise<number> {
  return installCommand([stagedPath(io.supportDir, id), ...(yes ? ["--yes"] : [])], io, "accept");
}

async function installCommand(argv: readonly string[], io: InstallIo, command: "install" | "accept"): Promise<number> {
  const yes = argv.includes("--yes") || argv.includes("-y");
  const downgrade = argv.includes("--downgrade");
  const rest = argv.filter((a) => a !== "--yes" && a !== "-y" && a !== "--downgrade");
  const unknown = rest.find((a) => a.startsWith("-"));
  if (rest.length !== 1 || unknown) {
    io.err(
      `${errorLine(`svc-host ${command}`, unknown ? `unknown option ${unknown}` : "give exactly one .svc file")}${INSTALL_USAGE}\n`,
    );
    return 2;
  }
  let file = rest[0];
  const address = command === "install" && isAddress(file) ? file : undefined;
  let fetched: { done(): Promise<void> } | undefined;
  try {
    if (address) {
      const got = await fetchPackage(file, process.env);
      fetched = got;
      file = got.file;
    }
    const result = await installPackage(file, {
      supportDir: io.supportDir,
      downgrade,
      // Remembered for svc-host update.
      ...(address ? { address } : {}),
      // Accepting a staged update is the person's answer to its diff; a plain install stages a wider one.
      stageWider: command === "install",
      confirm: async (summary) => {
        io.out(summary.text);
        if (address)
          io.out(`${escapeForDisplay(`Fetched from ${address}; svc-host update checks there for updates.`)}\n`);
        if (yes) return true;
        if (!io.isTTY) {
          io.err(
            `svc-host ${command}: not installed: stdin is not a terminal to ask on; run again with --yes to agree\n`,
          );
          return false;
        }
        const verb = summary.replaces
          ? summary.replaces.differentPackage
            ? "Replace it with"
            : "Update to"
          : "Install";
        const answer = await io.ask(escapeForDisplay(`${verb} ${summary.title} ${summary.version}? [y/N] `));
        return /^y(es)?$/i.test(answer.trim());
      },
    });
    if (result.staged) {
      // Not asked: staging changes nothing that runs. The diff is shown now and again at accept.
      io.out(result.summary.text);
      io.out(
        `${escapeForDisplay(`Staged, not installed: ${result.summary.title} ${result.summary.version} can do more than the installed ${result.summary.replaces?.version ?? ""}, which keeps running. To review and accept it: svc-host accept ${result.id}`)}\n`,
      );
      return 0;
    }
    if (!result.installed) {
      if (io.isTTY || yes) io.out("Not installed.\n");
      return 1;
    }
    io.out(`${escapeForDisplay(`Installed ${result.summary.title} ${result.summary.version} in ${result.path}`)}\n`);
    if (result.recordedAsTheyAre) io.out(`${escapeForDisplay(migrationNote(result.recordedAsTheyAre))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof InstallError) {
      io.err(errorLine(`svc-host ${command}`, error));
      return 1;
    }
    io.err(crashText(`svc-host ${command}`, error));
    return 1;
  } finally {
    await fetched?.done();
  }
}
