/** SHA-256 of text and of files: a table in the notch, a `sha256sum` list for a drop. */
import { status, table, type Block, type TableRow } from "@svc/api";
import { sha256OfBase64, sha256OfBytes } from "./sha256.js";

export interface HashIo {
  readBase64(path: string): Promise<string>;
}

const baseName = (path: string) => path.split("/").pop() || path;

async function hashFiles(
  paths: readonly string[],
  io: HashIo,
): Promise<Array<{ path: string; hex: string; bytes: number }>> {
  const out: Array<{ path: string; hex: string; bytes: number }> = [];
  for (const path of paths) out.push({ path, ...(await sha256OfBase64(await io.readBase64(path))) });
  return out;
}

/**
 * @example
 * await hashTool({ text: "abc", files: [] }, io) // [table([{ name: "Text (3 bytes)", value: "ba7816bf…" }])]
 */
export async function hashTool(values: { text: string; files: string[] }, io: HashIo): Promise<Block[]> {
  const rows: TableRow[] = [];
  if (values.text !== "") {
    const bytes = new TextEncoder().encode(values.text);
    rows.push({ name: `Text (${bytes.length} bytes)`, value: await sha256OfBytes(bytes) });
  }
  for (const file of await hashFiles(values.files, io))
    rows.push({ name: `${baseName(file.path)} (${file.bytes} bytes)`, value: file.hex });
  if (rows.length === 0) return [status("Type text or choose files to hash (or drop files on the tool).")];
  return [table(rows)];
}

/** The drop: every file hashed, a `sha256sum`-style list written and put on the clipboard. */
export async function hashDrop(
  files: readonly string[],
  io: HashIo & { writeText(name: string, text: string): Promise<string> },
) {
  const hashed = await hashFiles(files, io);
  const list = hashed.map((f) => `${f.hex}  ${baseName(f.path)}`).join("\n") + "\n";
  const output = await io.writeText("sha256sums.txt", list);
  return {
    message: `Hashed ${hashed.length} file${hashed.length === 1 ? "" : "s"} with SHA-256; the list is copied`,
    outputs: [output],
    copiedText: list,
  };
}
