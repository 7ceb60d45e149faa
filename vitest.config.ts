import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests import every workspace package from its TypeScript source, so a type error in one
// package never blocks another package's tests. Code that crosses a process or thread
// boundary (svc-runtime, the sandbox's sandbox threads) runs from the built dist/.
export default defineConfig({
  resolve: {
    alias: {
      // More specific first: an alias also matches the paths below it ("@svc/api/…").
      "@svc/api/log-level": src("./sdk/src/log-level.ts"),
      "@svc/api/secret-name": src("./sdk/src/secret-name.ts"),
      "@svc/api/signing": src("./sdk/src/signing/index.ts"),
      "@svc/api": src("./sdk/src/index.ts"),
      "@svc/sandbox/recording": src("./sandbox/src/capabilities/http-recording.ts"),
      "@svc/sandbox": src("./sandbox/src/index.ts"),
      "@svc/runtime": src("./runtime/src/index.ts"),
      "@svc/testkit": src("./testkit/src/index.ts"),
    },
  },
  test: {
    globalSetup: ["./test/build-first.ts"],
    include: ["**/src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    // Generous, so a busy machine (four CPU burners beside the suite on two cores) slows tests
    // down without failing them; a passing test never waits for it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
