/**
 * The trust pieces as the runtime meets them: their handlers installed on a real JSON-RPC
 * `Connection`, called from a second `Connection` (the runtime's side) with every message
 * going through JSON text, so the protocol's own schemas check each params and result.
 * Real gnome-keyring, real oidc-provider, real preference files.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import {
  Connection,
  ErrorCodes,
  HostOAuthConnect,
  HostOAuthConnections,
  HostOAuthDisconnect,
  HostOAuthToken,
  HostPreferencesSet,
  HostSecretsDelete,
  HostSecretsGet,
  HostSecretsSet,
  ResponseError,
} from "@svc/runtime";
import { ExtensionSecrets, KeyringSecretStore, secretHandlers } from "../../host/src/secrets/index.js";
import {
  preferenceHandlers,
  preferencesFolder,
  PreferenceStore,
  resolvePreferences,
} from "../../host/src/preferences/index.js";
import { oauthHandlers } from "../../host/src/oauth/index.js";
import { useSessionKeyring } from "./session-keyring.js";
import { startOAuthHarness, type OAuthHarness } from "./oauth-harness.js";

useSessionKeyring();
let h: OAuthHarness;
let root: string;
let runtime: Connection;
let manifest: Manifest;
let preferences: PreferenceStore;
const runs: string[] = [];

/** Two connections joined back to back, each message crossing as one line of JSON text. */
function pipePair(): { runtimeSide: Connection; hostSide: Connection } {
  const deliver = (to: () => Connection) => ({
    write: (message: unknown) => {
      const text = JSON.stringify(message);
      setImmediate(() => to().handleFrame({ kind: "line", text }));
    },
  });
  const runtimeSide: Connection = new Connection(deliver(() => hostSide));
  const hostSide: Connection = new Connection(deliver(() => runtimeSide));
  return { runtimeSide, hostSide };
}

beforeAll(async () => {
  h = await startOAuthHarness();
  root = await mkdtemp(join(tmpdir(), "svc-wire-"));
  const parsed = parseManifest({
    name: "wire",
    version: "1.0.0",
    svc: {
      id: h.extensionId,
      title: "Wire",
      preferences: [{ name: "branch", title: "Branch", type: "textfield", default: "main" }],
    },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  manifest = parsed.manifest;
  const secrets = new ExtensionSecrets(new KeyringSecretStore());
  preferences = new PreferenceStore({
    folder: preferencesFolder(root),
    secrets,
    onChanged: (id) => runs.push(`${id}: preferences`),
  });
  const { runtimeSide, hostSide } = pipePair();
  runtime = runtimeSide;
  const handlers = {
    ...secretHandlers(secrets),
    ...preferenceHandlers(preferences, (id) => (id === manifest.svc.id ? manifest : undefined)),
    ...oauthHandlers(h.oauth),
  };
  hostSide.onRequest(HostSecretsGet, handlers["secrets.get"]);
  hostSide.onRequest(HostSecretsSet, handlers["secrets.set"]);
  hostSide.onRequest(HostSecretsDelete, handlers["secrets.delete"]);
  hostSide.onRequest(HostPreferencesSet, handlers["preferences.set"]);
  hostSide.onRequest(HostOAuthConnect, handlers["oauth.connect"]);
  hostSide.onRequest(HostOAuthConnections, handlers["oauth.connections"]);
  hostSide.onRequest(HostOAuthToken, handlers["oauth.token"]);
  hostSide.onRequest(HostOAuthDisconnect, handlers["oauth.disconnect"]);
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await rm(root, { recursive: true, force: true });
});

it("host.secrets.*: set, get, delete, and null for unset", async () => {
  const extensionId = h.extensionId;
  expect(await runtime.sendRequest(HostSecretsGet, { extensionId, name: "apiKey" })).toEqual({ value: null });
  expect(await runtime.sendRequest(HostSecretsSet, { extensionId, name: "apiKey", value: "s3cret" })).toEqual({});
  expect(await runtime.sendRequest(HostSecretsGet, { extensionId, name: "apiKey" })).toEqual({ value: "s3cret" });
  expect(await runtime.sendRequest(HostSecretsDelete, { extensionId, name: "apiKey" })).toEqual({});
  expect(await runtime.sendRequest(HostSecretsGet, { extensionId, name: "apiKey" })).toEqual({ value: null });
});

it("host.preferences.set: saved, announced, passed on the next load; a refusal is InvalidParams", async () => {
  expect(
    await runtime.sendRequest(HostPreferencesSet, { extensionId: h.extensionId, name: "branch", value: "release" }),
  ).toEqual({});
  expect(runs).toEqual([`${h.extensionId}: preferences`]);
  expect(await resolvePreferences(manifest, preferences)).toEqual({ branch: "release" });
  const refusal = await runtime
    .sendRequest(HostPreferencesSet, { extensionId: h.extensionId, name: "branch", value: 7 })
    .catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(ResponseError);
  expect((refusal as ResponseError).code).toBe(ErrorCodes.InvalidParams);
  expect((refusal as ResponseError).message).toBe('"branch" should be text (a string)');
});

it("host.oauth.*: connect through the browser, list, take a token, disconnect", async () => {
  const extensionId = h.extensionId;
  expect(await runtime.sendRequest(HostOAuthConnect, { extensionId })).toEqual({});
  expect((await h.lastPage()).status).toBe(200);
  const { connections } = await runtime.sendRequest(HostOAuthConnections, { extensionId });
  expect(connections).toEqual([
    { id: expect.any(String), connectedAt: expect.any(String), scopes: ["api"], needsReconnect: false },
  ]);
  const answer = await runtime.sendRequest(HostOAuthToken, { extensionId, provider: "demo" });
  expect(answer).toEqual({ token: expect.any(String), connection: connections[0] });
  expect(await runtime.sendRequest(HostOAuthDisconnect, { extensionId })).toEqual({});
  expect(await runtime.sendRequest(HostOAuthToken, { extensionId })).toEqual({ token: null });
  expect(h.notices).toEqual(["Demo is connected"]);
  expect(h.changes).toEqual([
    ["demo", "connected"],
    ["demo", "disconnected"],
  ]);
});
