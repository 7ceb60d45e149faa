// A small rule set: what STYLE.md, UI.md and the security model forbid, and the bugs the type
// checker cannot see. Formatting is not the linter's job.
import tseslint from "typescript-eslint";

/** Ways to turn a string into markup or code: banned everywhere (a stranger writes half of what we show). */
const MARKUP_SINKS = ["innerHTML", "outerHTML", "insertAdjacentHTML", "srcdoc"].map((property) => ({
  selector: `MemberExpression[property.name="${property}"]`,
  message: `${property} turns text into markup: use text bindings (lit templates, textContent).`,
}));

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "bench/fixtures/**", "**/*.d.ts", "scratch/**"] },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        project: ["./tsconfig.check.json", "./tsconfig.check-ui.json", "./sandbox/guest/tsconfig.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["test", "it", "describe", "suite"] },
          ],
        },
      ],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-restricted-syntax": [
        "error",
        ...MARKUP_SINKS,
        {
          selector: "CallExpression[callee.property.name='write'][callee.object.name='document']",
          message: "document.write turns text into markup.",
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["lit/directives/unsafe-*", "lit-html/directives/unsafe-*"],
              message: "unsafe directives render strings as markup: use text bindings.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests run the same bundle on Node to compare it with the sandbox.
    files: ["**/*.test.ts", "test/**/*.ts"],
    rules: { "no-new-func": "off" },
  },
);
