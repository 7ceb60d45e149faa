/**
 * A tool's result blocks as MCP content: text for every block (as `svckit tool run` prints it),
 * and the picture itself for an `image` block (the app has already checked its path: inside the
 * extension's data folder or a file given in that run).
 */
import { readFile, stat } from "node:fs/promises";
import { MAX_INLINE_IMAGE_BYTES, imageMediaType, type Block } from "@svc/api";
import { formatBlocks } from "../tools/format-blocks.js";

export type McpContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** An image block as MCP content: the picture itself, or a line saying why not. */
export async function imageContent(path: string): Promise<McpContent> {
  const mimeType = imageMediaType(path);
  if (!mimeType) return { type: "text", text: `image ${path} (not a PNG, JPEG, GIF or WebP: not sent)` };
  try {
    const info = await stat(path);
    if (info.size > MAX_INLINE_IMAGE_BYTES)
      return { type: "text", text: `image ${path} (${info.size} bytes, over ${MAX_INLINE_IMAGE_BYTES}: not sent)` };
    return { type: "image", data: (await readFile(path)).toString("base64"), mimeType };
  } catch (error) {
    return { type: "text", text: `image ${path} (could not be read: ${(error as Error).message})` };
  }
}

/**
 * @example
 * await mcpContent([{ type: "status", text: "Valid JSON", tone: "positive" }]) // [{ type: "text", text: "✔ Valid JSON" }]
 */
export async function mcpContent(blocks: readonly Block[]): Promise<McpContent[]> {
  const content: McpContent[] = [];
  for (const block of blocks) {
    if (block.type === "image") content.push(await imageContent(block.path));
    else content.push({ type: "text", text: formatBlocks([block]).join("\n") });
  }
  return content.length > 0 ? content : [{ type: "text", text: "(the tool returned nothing)" }];
}
