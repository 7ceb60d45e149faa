import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_INLINE_IMAGE_BYTES } from "@svc/api";
import { describe, expect, it } from "vitest";
import { inlinePicture } from "./page-tools.js";

const folder = mkdtempSync(join(tmpdir(), "svc-page-tools-"));

describe("inlinePicture", () => {
  it("inlines a picture of exactly MAX_INLINE_IMAGE_BYTES, and leaves one a byte larger as its path", async () => {
    const atLimit = join(folder, "at-limit.gif");
    writeFileSync(atLimit, Buffer.alloc(MAX_INLINE_IMAGE_BYTES, 1));
    const inlined = await inlinePicture({ type: "image", path: atLimit });
    expect(inlined).toMatchObject({ type: "image", path: atLimit });
    expect((inlined as { dataUrl: string }).dataUrl.startsWith("data:image/gif;base64,AQEB")).toBe(true);
    const past = join(folder, "past.gif");
    writeFileSync(past, Buffer.alloc(MAX_INLINE_IMAGE_BYTES + 1, 1));
    await expect(inlinePicture({ type: "image", path: past })).resolves.toEqual({ type: "image", path: past });
  });

  it("leaves other blocks, other file types and unreadable files as they are", async () => {
    const svg = join(folder, "drawing.svg");
    writeFileSync(svg, "<svg/>");
    await expect(inlinePicture({ type: "image", path: svg })).resolves.toEqual({ type: "image", path: svg });
    const gone = join(folder, "gone.png");
    await expect(inlinePicture({ type: "image", path: gone })).resolves.toEqual({ type: "image", path: gone });
    await expect(inlinePicture({ type: "text", value: "hi" })).resolves.toEqual({ type: "text", value: "hi" });
  });
});
