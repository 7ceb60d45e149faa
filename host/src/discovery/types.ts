/** What discovery knows about one extension folder. */
import type { Manifest, ToolSpec } from "@svc/api";

/** Where an extension was found: inside the app (or this repository) or in the user's folder. */
export type ExtensionSource = "bundled" | "user";

/** One folder to look for extensions in. */
export interface ExtensionRoot {
  path: string;
  source: ExtensionSource;
}

/**
 * One extension folder, as read from disk. A broken one (`error` set) is listed so a person can
 * see what to fix; it is never loaded.
 */
export interface DiscoveredExtension {
  /** The manifest's `svc.id`; for a folder whose manifest cannot be read, the folder name. */
  id: string;
  /** The folder as found (a symlink stays a symlink path here). */
  folder: string;
  source: ExtensionSource;
  /** The checked `package.json`; absent when broken. */
  manifest?: Manifest;
  /** Why the folder cannot be loaded, for a person: `package.json: "svc.interval" should be …`. */
  error?: string;
  /** Mistakes in the manifest's `oauth` block (those providers are left out); shown, never hiding the extension. */
  oauthProblems?: string[];
  /** Tools read from `dist/tools.json`, before any extension code runs. */
  tools: ToolSpec[];
  /** Problems with `dist/tools.json`; the valid tools are still listed. */
  toolErrors: string[];
}

/** The outcome of resolving every root: one winner per id, and everything else a person should see. */
export interface Catalog {
  /** Loadable extensions, one per id, user ones winning over bundled ones. */
  active: DiscoveredExtension[];
  /** Folders that cannot be loaded: broken manifests, missing code, duplicate ids. */
  broken: DiscoveredExtension[];
  /** Bundled extensions hidden by a user extension with the same id. */
  overridden: DiscoveredExtension[];
}
