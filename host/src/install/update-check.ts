/**
 * "Check for updates" (`svc-host update [<id>]`, Settings' "Check for updates"): fetches the
 * package again from the address the person installed it from (kept in the ledger beside the
 * approval, so neither a package nor an edit outside svc can point it elsewhere), then runs the
 * one installer over it. A newer version from the pinned key that gains nothing is installed;
 * one that gains anything, or comes with a handed-over key (or none, over an unsigned one), is
 * staged and never applied by itself; another key, an unsigned package over a signed one, a
 * revoked version or another id are refused with the installer's words; the same or an older
 * version is "up to date".
 */
import { escapeForDisplay } from "@svc/api";
import { Ledger } from "../ledger/index.js";
import { KeyringSecretStore } from "../secrets/index.js";
import { fetchPackage } from "./fetch-package.js";
import type { InstallIo } from "./install-command.js";
import { installPackage } from "./install-package.js";
import { InstallError, type InstallSummary } from "../review/index.js";
import { errorLine } from "../support/index.js";

export type UpdateOutcome = {
  id: string;
  address: string;
  /** The review of what the address offers (also when it is up to date). */
  summary: InstallSummary;
} & (
  | { kind: "updated"; from: string; to: string }
  | { kind: "staged"; from: string; to: string; because: "more" | "key" }
  | { kind: "up-to-date"; installed: string; offered: string }
);

export const UPDATE_USAGE = "usage: svc-host update [<id>]";

/**
 * Checks the address `id` was installed from. Throws InstallError (for a person) when there is
 * none, when fetching fails or when the package is refused.
 *
 * @example
 * const outcome = await checkForUpdate("com.example.deploys", { supportDir, env: process.env });
 * // { kind: "staged", from: "1.0.0", to: "1.1.0", … }
 */
export async function checkForUpdate(
  id: string,
  options: { supportDir: string; env: Readonly<Record<string, string | undefined>>; ledger?: Ledger },
): Promise<UpdateOutcome> {
  const ledger =
    options.ledger ?? (await Ledger.open({ supportRoot: options.supportDir, secrets: new KeyringSecretStore() }));
  const standing = await ledger.standing(id);
  const address = standing.kind === "approved" ? standing.approval.address : undefined;
  if (standing.kind !== "approved" || !address)
    throw new InstallError(
      `${id} was not installed from an address, so there is nowhere to look for its updates: ` +
        `install it once from the author's https address (svc-host install https://…/x.svc) and svc remembers it`,
    );
  const from = standing.approval.version;
  const got = await fetchPackage(address, options.env);
  try {
    const result = await installPackage(got.file, {
      supportDir: options.supportDir,
      ledger,
      address,
      updateOf: id,
      stageWider: true,
      // Nothing to ask: what is not staged reaches only what the person approved, from the key they pinned.
      confirm: () => true,
    });
    const base = { id, address, summary: result.summary };
    if (result.upToDate) return { ...base, kind: "up-to-date", installed: from, offered: result.summary.version };
    if (result.staged)
      return { ...base, kind: "staged", from, to: result.summary.version, because: result.stagedFor ?? "more" };
    return { ...base, kind: "updated", from, to: result.summary.version };
  } finally {
    await got.done();
  }
}

/** What the person reads about an outcome: one line, the package's words made inert. */
export function updateMessage(outcome: UpdateOutcome): string {
  const title = outcome.summary.title;
  switch (outcome.kind) {
    case "up-to-date":
      return escapeForDisplay(
        `${title} ${outcome.installed} is up to date: ${outcome.address} offers ${outcome.offered}.`,
      );
    case "updated":
      return escapeForDisplay(`Updated ${title} from ${outcome.from} to ${outcome.to}.`);
    case "staged": {
      const why =
        outcome.because === "more"
          ? `can do more than the installed ${outcome.from}, which keeps running`
          : `is not signed with the key you installed ${outcome.from} with, so it waits for your review; ${outcome.from} keeps running`;
      return escapeForDisplay(
        `Staged, not installed: ${title} ${outcome.to} ${why}. To review and accept it: svc-host accept ${outcome.id}, or Settings' "Review update…".`,
      );
    }
  }
}

/**
 * `svc-host update [<id>]`: checks one extension, or every one installed from an address.
 *
 * @example
 * process.exitCode = await runUpdateCommand([], terminalIo(supportRoot())); // 0, or 1 when any was refused
 */
export async function runUpdateCommand(argv: readonly string[], io: InstallIo): Promise<number> {
  if (argv.length > 1 || argv.some((word) => word.startsWith("-"))) {
    io.err(`svc-host update: give at most one extension id\n${UPDATE_USAGE}\n`);
    return 2;
  }
  let ids: string[];
  let ledger: Ledger;
  try {
    ledger = await Ledger.open({ supportRoot: io.supportDir, secrets: new KeyringSecretStore() });
    ids = argv.length ? [...argv] : [...(await ledger.addresses()).keys()].sort();
  } catch (error) {
    io.err(errorLine("svc-host update", error));
    return 1;
  }
  if (ids.length === 0) {
    io.out(
      "No extension was installed from an address, so there is nowhere to look for updates. Install one from its https address (svc-host install https://…/x.svc) and svc remembers it.\n",
    );
    return 0;
  }
  let code = 0;
  for (const id of ids) {
    try {
      const outcome = await checkForUpdate(id, { supportDir: io.supportDir, env: process.env, ledger });
      // The review is shown whenever something changed or waits: what it is, who signed it, what it gains.
      if (outcome.kind !== "up-to-date") io.out(outcome.summary.text);
      io.out(`${updateMessage(outcome)}\n`);
    } catch (error) {
      if (!(error instanceof InstallError)) throw error;
      io.err(errorLine("svc-host update", error));
      code = 1;
    }
  }
  return code;
}
