/**
 * Writes zip bytes by hand, so tests can build the archives a careful zip library refuses to
 * make: names with `..`, absolute paths, backslashes and drive letters, symlink entries,
 * headers that lie about sizes, deflate data padded to a chosen packed size.
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface RawEntry {
  /** The name exactly as stored (a string is written as UTF-8 with the UTF-8 flag). */
  name: string;
  data?: Buffer | string;
  /** Deflate the data (default true); false stores it as is. */
  deflate?: boolean;
  /** Unix mode with type bits, e.g. 0o100644 (file, default), 0o120777 (symlink), 0o040755 (folder). */
  mode?: number;
  /** Pad the deflated data with zero bytes up to this packed size (inflate ignores what follows the end). */
  packedSize?: number;
  /** Claim this unpacked size in the headers instead of the real one. */
  claimedSize?: number;
}

/**
 * @example
 * writeFileSync("evil.svc", zipBytes([{ name: "../evil", data: "x" }]));
 */
export function zipBytes(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? "", "utf8");
    const deflate = entry.deflate ?? true;
    let packed = deflate ? deflateRawSync(data) : data;
    if (entry.packedSize !== undefined) {
      if (entry.packedSize < packed.length)
        throw new Error(`${entry.name}: deflates to ${packed.length} bytes, more than ${entry.packedSize}`);
      packed = Buffer.concat([packed, Buffer.alloc(entry.packedSize - packed.length)]);
    }
    const size = entry.claimedSize ?? data.length;
    const crc = crc32(data);
    const method = deflate ? 8 : 0;
    const flags = 0x800; // names are UTF-8

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
