import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWebhookFile, writeWebhookFile, WebhookFileError } from "./webhook-file.js";

const folder = mkdtempSync(join(tmpdir(), "svc-webhook-file-"));

describe("readWebhookFile", () => {
  it("reads back what writeWebhookFile wrote, at both ends of the port range", async () => {
    for (const port of [1, 65535]) {
      const path = join(folder, `ok-${port}.json`);
      await writeWebhookFile(path, { port, token: "secret" });
      await expect(readWebhookFile(path)).resolves.toEqual({ port, token: "secret" });
    }
  });

  it("says the file is not {port, token} for a port past the range, an empty token or broken JSON", async () => {
    for (const [name, text] of [
      ["port-0", '{"port": 0, "token": "t"}'],
      ["port-65536", '{"port": 65536, "token": "t"}'],
      ["empty-token", '{"port": 47811, "token": ""}'],
      ["broken", '{"port": 47811,'],
    ]) {
      const path = join(folder, `${name}.json`);
      writeFileSync(path, text);
      const error = await readWebhookFile(path).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebhookFileError);
      expect(error).toMatchObject({
        reason: "invalid",
        message: `${path} is not {"port": <number>, "token": "<string>"}: restart svc to rewrite it`,
      });
    }
  });

  it("says svc may not be running when there is no file", async () => {
    const path = join(folder, "none.json");
    await expect(readWebhookFile(path)).rejects.toMatchObject({
      reason: "missing",
      message: `no ${path}: is svc running? (it writes this file at every launch)`,
    });
  });
});
