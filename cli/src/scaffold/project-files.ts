/**
 * The files every scaffolded extension has besides `src/index.ts`: package.json with the
 * manifest, tsconfig.json for the editor, README.md and .gitignore.
 */
import type { Template } from "./template.js";

export interface NewExtension {
  /** The npm package name and folder name. */
  name: string;
  /** The manifest id, reverse-DNS. */
  id: string;
  /** A person's title, from the name: `my-deploys` → `My Deploys`. */
  title: string;
  template: Template;
}

/** The host every template's network permission starts with; the README says to change it. */
const EXAMPLE_HOST = "api.example.com";

export function packageJson({ name, id, title, template }: NewExtension): string {
  const manifest = {
    name,
    version: "0.1.0",
    private: true,
    description: template.description,
    main: "dist/index.js",
    scripts: {
      build: "svckit build",
      dev: "svckit dev",
      validate: "svckit validate",
      test: "svckit test",
      pack: "svckit pack",
    },
    // Not @svc/api, @svc/testkit or svckit: none is on the npm registry, so `npm install` would
    // look them up there (and find a stranger's package, or nothing). The README says how to get them.
    devDependencies: { typescript: "^5.9.0" },
    svc: {
      id,
      title,
      description: template.description,
      icon: template.icon,
      author: "",
      categories: template.categories,
      interval: template.interval,
      preferences: [
        {
          name: "apiUrl",
          title: "API URL",
          type: "textfield",
          required: false,
          placeholder: template.apiExample,
          description: "Where to fetch from. Leave it empty to see sample data.",
        },
        {
          name: "apiToken",
          title: "API token",
          type: "password",
          required: false,
          description: "Sent as a Bearer token, when set.",
        },
      ],
      permissions: { network: [EXAMPLE_HOST], files: [], exec: [] },
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export const TSCONFIG = `${JSON.stringify(
  {
    // For the editor and \`npx tsc\`: svckit build bundles with esbuild and ignores this file.
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022", "DOM"],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      isolatedModules: true,
    },
    include: ["src"],
  },
  null,
  2,
)}\n`;

export const GITIGNORE = "node_modules/\ndist/\n*.svc\n";

export function readme({ name, title, template }: NewExtension): string {
  return `# ${title}

${template.description}.

Made with \`svckit new --template ${template.name}\`. Until you set an API URL in the app's
Settings, it shows **sample data**, marked "(sample)" in the title.

## Point it at your API

1. Set **API URL** (and **API token**, if your API needs one) in the extension's Settings.
2. Put your API's host name in \`svc.permissions.network\` in \`package.json\`
   (it says \`${EXAMPLE_HOST}\` now): the sandbox refuses every host not listed there.
3. The extension expects JSON like this from the URL; change the types in \`src/index.ts\`
   to match what your service really answers:

\`\`\`json
${template.apiShape}
\`\`\`

## Commands

| command | what it does |
|---|---|
| \`svckit build\` | bundles \`src/index.ts\` into \`dist/index.js\` and checks the manifest |
| \`svckit validate\` | runs \`update()\` once in the app's sandbox and prints the blips |
| \`svckit test\` | runs \`test/*.test.ts\` offline: the API is replayed from \`test/recordings/\`; \`--record\` records it again from the real API |
| \`svckit dev\` | rebuilds on save and links the extension into the app, which reloads it |
| \`svckit pack\` | writes \`${name}-<version>.svc\` to share; people install it in the app |

svckit, \`@svc/api\` and \`@svc/testkit\` are not on the npm registry: never \`npx svckit\` here (npx would fetch
whatever a stranger published under that name). Use the svckit you made this with — from an
svc clone, \`export PATH="<clone>/node_modules/.bin:$PATH"\` puts it on your PATH — or install
both from tarballs as the svc repository's \`cli/README.md\` shows ("Getting @svc/api and
svckit outside this repository"); then \`npm run build\`, \`npm run dev\` … work too.

Before you pack, give the extension your own id in \`svc.id\` (reverse-DNS, e.g.
\`com.yourname.${name}\`) and fill in \`svc.author\`.
`;
}
