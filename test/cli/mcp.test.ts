/**
 * `svckit mcp` with a real MCP client from the same SDK over stdio, against the REAL svc-host and
 * runtime: only tools switched on for agents are listed, their fields become JSON Schema, a call
 * runs the tool (an image block comes back as an image), and a file path is refused while no
 * notch is open to ask the person (test/ui/agents.test.ts has the person's Allow and Deny).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { realpathSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useHostWorld } from "../host/harness.js";
import { DOT_PNG, TOOLS_ID } from "../host-tools/fixture.js";
import { callHost, startToolHost } from "../host-tools/harness.js";
import { REPO, svckitProcess } from "./harness.js";

const scene = useHostWorld({ perFile: true });
let client: Client | undefined;
let stderr = "";

/** What `svckit mcp --print-config` gives the person to paste into their MCP client. */
async function printedConfig(): Promise<{ command: string; args: string[]; env?: Record<string, string> }> {
  const printed = await svckitProcess(["mcp", "--print-config"], {
    cwd: scene.world.userHome,
    env: { HOME: scene.world.userHome, SVC_HOME: scene.world.home },
  });
  expect(printed).toMatchObject({ code: 0, stderr: "" });
  return JSON.parse(printed.stdout).mcpServers.svc;
}

async function connect(): Promise<Client> {
  // Started exactly as the printed configuration says, with no PATH at all (an MCP client
  // starts its servers without the person's shell).
  const config = await printedConfig();
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { HOME: scene.world.userHome, ...config.env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const next = new Client({ name: "svc-test", version: "1.0.0" });
  await next.connect(transport);
  return next;
}

afterAll(async () => {
  await client?.close();
});

const switchOn = (tool: string) =>
  callHost(scene.world, "PUT", `/v1/tools/${TOOLS_ID}/${tool}/agents`, { enabled: true });

describe("svckit mcp", () => {
  it("--print-config names this svckit by absolute paths, never npx, with the support folder", async () => {
    const config = await printedConfig();
    expect(config).toEqual({
      command: process.execPath,
      args: [realpathSync(join(REPO, "cli", "bin", "svckit.js")), "mcp"],
      env: { SVC_HOME: scene.world.home },
    });
    expect(JSON.stringify(config)).not.toContain("npx");
  });

  it(
    "starts the app and an MCP client on svckit mcp; no tool is offered until switched on",
    { timeout: 60_000 },
    async () => {
      scene.host = await startToolHost(scene.world);
      client = await connect();
      expect(client.getServerVersion()?.name).toBe("svc");
      expect((await client.listTools()).tools).toEqual([]);
      expect(stderr).toContain("svckit mcp: serving svc's tools on stdin/stdout");
    },
  );

  it("lists the switched-on tools, one per action, with names MCP accepts and fields as JSON Schema", async () => {
    for (const tool of ["echo", "plain", "picture", "read"]) expect((await switchOn(tool)).status).toBe(200);
    // webhook.json and the switches are read on every call: no restart of the server needed.
    const { tools } = await client!.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo_go", "echo_again", "plain", "read_read", "read_steal", "picture"]);
    for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const echo = tools[0];
    expect(echo.description).toBe(`Echo — Go (svc tool ${TOOLS_ID}/echo, from Tool fixture). Says back what it got`);
    expect(echo.inputSchema).toEqual({
      type: "object",
      additionalProperties: false,
      properties: {
        input: { type: "string", default: "hi" },
        count: { type: "number", minimum: 1, maximum: 10, default: 3 },
        flag: { type: "boolean", default: false },
        pick: { type: "string", enum: ["one", "two"], default: "one", description: "One of: one (One), two (Two)" },
        source: { type: "string", description: "json code" },
        headers: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, value: { type: "string" } },
            required: ["name", "value"],
            additionalProperties: false,
          },
          description: "A list of name/value pairs",
        },
        file: {
          type: "array",
          items: { type: "string" },
          description:
            "Absolute file paths. The call waits until the person allows these files in svc's notch (up to about a minute); if they deny it, or do not answer, the tool does not run.",
        },
      },
    });
    expect(tools[5].inputSchema.properties).toEqual({
      size: { type: "number", minimum: 1, maximum: 4, default: 1, description: "In px" },
    });
  });

  it("calls a tool with its arguments and gives the blocks back as text", async () => {
    const result = await client!.callTool({
      name: "echo_again",
      arguments: { input: "from an agent", count: 7, pick: "two" },
    });
    expect(result.isError).toBeFalsy();
    const [first] = result.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(first.text)).toMatchObject({
      action: "again",
      values: { input: "from an agent", count: 7, pick: "two", file: [] },
    });
    expect(await client!.callTool({ name: "plain", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "✔ plain run" }],
    });
  });

  it("sends an image block as an image", async () => {
    const result = await client!.callTool({ name: "picture", arguments: {} });
    expect(result.content).toEqual([
      { type: "image", data: DOT_PNG, mimeType: "image/png" },
      { type: "text", text: "■ #ff8800" },
    ]);
  });

  it("refuses a file path from the agent while no notch is open to ask the person, and says why; the tool never ran", async () => {
    const dir = join(scene.world.root, "secrets");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "key.txt"), "secret");
    const from = scene.host!.events.length;
    const result = await client!.callTool({ name: "read_read", arguments: { file: [join(dir, "key.txt")] } });
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "no svc notch is open to ask the person: a file path from an agent is a read grant only once the person allows it there. Ask them to open svc, then call Read again",
        },
      ],
    });
    expect(JSON.stringify(result)).not.toContain('secret"');
    expect(
      scene
        .host!.events.slice(from)
        .some((e) => e.type === "status" && e.extensionId === TOOLS_ID && e.status === "running"),
    ).toBe(false);
  });

  it("says what went wrong: a bad value, a tool switched off meanwhile, a name it does not know", async () => {
    expect(await client!.callTool({ name: "echo_go", arguments: { count: "3" } })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: '"values.count" should be a number' }],
    });
    await callHost(scene.world, "PUT", `/v1/tools/${TOOLS_ID}/plain/agents`, { enabled: false });
    expect(await client!.callTool({ name: "plain", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'no svc tool named "plain" is switched on for agents; list the tools again' }],
    });
    expect((await client!.listTools()).tools.map((t) => t.name)).not.toContain("plain");
  });

  it(
    "follows the app across a restart (new token), and says so when the app is gone",
    { timeout: 60_000 },
    async () => {
      await scene.host!.stop();
      // A clean stop removes webhook.json: there is no port left to try.
      await expect(client!.listTools()).rejects.toThrow(`no webhook.json in ${scene.world.home}: start the app`);
      scene.host = await startToolHost(scene.world);
      expect((await client!.listTools()).tools.map((t) => t.name)).toContain("picture");
    },
  );
});
