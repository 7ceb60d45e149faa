/** `svc-host install <file.svc> [--yes]`: asking on a terminal, refusing without one. */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runInstallCommand, type InstallIo } from "./index.js";
import { packageJson, writeSvc } from "../../../test/trust/svc-package.js";

let root: string;
let file: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "svc-install-cli-"));
  file = join(root, "deploys-1.2.0.svc");
  await writeSvc(file, { "package.json": packageJson(), "dist/index.js": "module.exports = {};" });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function io(isTTY: boolean, answer = ""): InstallIo & { output: string; errors: string; questions: string[] } {
  const state = {
    supportDir: join(root, "Svc"),
    output: "",
    errors: "",
    questions: [] as string[],
    isTTY,
    out: (text: string) => void (state.output += text),
    err: (text: string) => void (state.errors += text),
    ask: async (question: string) => (state.questions.push(question), answer),
  };
  return state;
}

const installed = async () => readdir(join(root, "Svc", "Extensions")).catch(() => []);

it("prints the summary and asks y/N on a terminal; y installs", async () => {
  const terminal = io(true, "y");
  expect(await runInstallCommand([file], terminal)).toBe(0);
  expect(terminal.output).toContain("Deploys 1.2.0 (com.example.deploys) by Example\n");
  expect(terminal.questions).toEqual(["Install Deploys 1.2.0? [y/N] "]);
  expect(terminal.output).toContain(
    `Installed Deploys 1.2.0 in ${join(root, "Svc", "Extensions", "com.example.deploys")}\n`,
  );
  expect(await installed()).toEqual(["com.example.deploys"]);
});

it("installs nothing on an empty answer (N is the default)", async () => {
  const terminal = io(true, "");
  expect(await runInstallCommand([file], terminal)).toBe(1);
  expect(terminal.output).toContain("Not installed.\n");
  expect(await installed()).toEqual([]);
});

it("asks to update when the extension is installed", async () => {
  await runInstallCommand([file, "--yes"], io(false));
  const terminal = io(true, "no");
  expect(await runInstallCommand([file], terminal)).toBe(1);
  expect(terminal.questions).toEqual(["Update to Deploys 1.2.0? [y/N] "]);
});

it("refuses without --yes when stdin is not a terminal; --yes installs", async () => {
  const piped = io(false);
  expect(await runInstallCommand([file], piped)).toBe(1);
  expect(piped.output).toContain("It can reach nothing outside svc");
  expect(piped.errors).toBe(
    "svc-host install: not installed: stdin is not a terminal to ask on; run again with --yes to agree\n",
  );
  expect(await installed()).toEqual([]);
  const agreed = io(false);
  expect(await runInstallCommand([file, "--yes"], agreed)).toBe(0);
  expect(await installed()).toEqual(["com.example.deploys"]);
});

it("prints one line for a refused package, and the usage for wrong arguments", async () => {
  const broken = io(true, "y");
  expect(await runInstallCommand([join(root, "missing.svc")], broken)).toBe(1);
  expect(broken.errors).toMatch(
    /^svc-host install: cannot install missing\.svc: not a readable \.svc package \(a zip file\): .*\n$/,
  );
  const wrong = io(true);
  expect(await runInstallCommand([], wrong)).toBe(2);
  expect(wrong.errors).toBe(
    "svc-host install: give exactly one .svc file\nusage: svc-host install <file.svc | https://…/x.svc | catalog name> [--yes] [--downgrade]\n",
  );
  expect(await runInstallCommand([file, "--force"], wrong)).toBe(2);
  expect(wrong.errors).toContain("svc-host install: unknown option --force\n");
});
