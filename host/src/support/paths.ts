/**
 * Where the app keeps its files (DESIGN.md "Entry points", SPEC.md "File layout"): `SVC_HOME`,
 * else the platform's usual place for application data, and the fixed layout inside it.
 */
import { join } from "node:path";

export { supportRoot } from "@svc/runtime";

/** Every path the host uses inside the support folder. */
export interface SupportPaths {
  root: string;
  /** `Extensions/<extension-id>/`: installed or dev-linked extensions. */
  extensions: string;
  /** `Data/<extension-id>/`: per-extension storage, owned by the runtime. */
  data: string;
  /** `webhook.json`: `{port, token}`, mode 0600, rewritten at every launch. */
  webhookFile: string;
  /** `bin/`: holds the `svc-hook` launcher. */
  bin: string;
  /** `bin/svc-hook` (`bin/svc-hook.cmd` on Windows). */
  hookLauncher: string;
  /** `blips.json`: the blip store (ours: SPEC.md leaves where the host keeps blips open). */
  blipsFile: string;
  /** `hook/`: what `svc-hook start` remembers (title, start time) for later `step` calls. */
  hookState: string;
  /** `host.lock`: `{pid, port}` of the one host running on this folder. */
  lockFile: string;
  /** `disabled.json`: ids of extensions the person turned off (`svc-host disable`). */
  disabledFile: string;
  /** `ui-open/`: the pages `svc-host ui` opens, each holding a one-time UI address (0700, files 0600). */
  uiOpen: string;
}

/**
 * The layout inside a support folder.
 *
 * @example
 * supportPaths("/tmp/svc").webhookFile // "/tmp/svc/webhook.json"
 */
export function supportPaths(root: string, platform: NodeJS.Platform = process.platform): SupportPaths {
  const bin = join(root, "bin");
  return {
    root,
    extensions: join(root, "Extensions"),
    data: join(root, "Data"),
    webhookFile: join(root, "webhook.json"),
    bin,
    hookLauncher: join(bin, platform === "win32" ? "svc-hook.cmd" : "svc-hook"),
    blipsFile: join(root, "blips.json"),
    hookState: join(root, "hook"),
    lockFile: join(root, "host.lock"),
    disabledFile: join(root, "disabled.json"),
    uiOpen: join(root, "ui-open"),
  };
}
