/**
 * The layering `npm run check` enforces (ARCHITECTURE.md "The pieces"): imports between packages
 * only down the package order, and no folder loops inside any package. Tests and their fixtures
 * are left out: they may reach across to set a scene.
 */

const PACKAGES = ["sdk", "sandbox", "runtime", "host", "testkit", "cli", "ui", "desktop"];

/** What each package may import of the others (the package order; everything else is refused). */
const MAY_IMPORT = {
  sdk: [],
  sandbox: ["sdk"],
  runtime: ["sdk", "sandbox"],
  host: ["sdk", "sandbox", "runtime"],
  testkit: ["sdk", "sandbox", "runtime"],
  cli: ["sdk", "sandbox", "runtime", "testkit"],
  // The page reads two vocabularies declared by the side that serves them, types only: the UI
  // server's feed and the desktop shell's `window.svcShell`.
  ui: ["sdk", "host/src/ui-server/wire.ts", "desktop/src/shell-api.ts"],
  desktop: ["sdk", "runtime", "host"],
};

const packageOrder = PACKAGES.map((name) => ({
  name: `${name}-imports-down-only`,
  comment: `${name}/ may import only ${MAY_IMPORT[name].join(", ") || "no other package"} (ARCHITECTURE.md "The pieces")`,
  severity: "error",
  from: { path: `^${name}/` },
  to: {
    path: `^(${PACKAGES.filter((other) => other !== name).join("|")})/`,
    pathNot: MAY_IMPORT[name].map(
      (allowed) => `^${allowed.replaceAll(".", "\\.")}${allowed.includes(".") ? "$" : "/"}`,
    ),
  },
}));

module.exports = {
  forbidden: [
    {
      name: "no-folder-loop",
      comment:
        "Folders of a package depend one way: a loop means two folders are one piece, or a helper sits in the wrong one.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    ...packageOrder,
  ],
  options: {
    doNotFollow: { path: ["node_modules", "/dist/"] },
    exclude: { path: ["node_modules", "\\.test\\.ts$", "\\.fixtures\\.ts$", "\\.child\\.mjs$", "/testing/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.check.json" },
  },
};
