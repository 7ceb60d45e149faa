/**
 * SHA-256 (FIPS 180-4) in plain JavaScript: the sandbox has no `crypto.subtle`. Incremental, so
 * a large file is hashed a slice at a time with the thread given back in between (no synchronous
 * stretch of guest code may run past a second).
 */
// Int32Array, not Uint32Array: QuickJS keeps 32-bit signed values as small integers, but
// unsigned ones past 2^31 as doubles, which made hashing several times slower.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/**
 * @example
 * const h = new Sha256(); h.update(new TextEncoder().encode("abc")); h.hex()
 * // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export class Sha256 {
  private readonly state = new Int32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  private readonly block = new Uint8Array(64);
  private readonly w = new Int32Array(64);
  private filled = 0;
  private length = 0;

  update(bytes: Uint8Array): this {
    this.length += bytes.length;
    let i = 0;
    if (this.filled > 0) {
      const take = Math.min(64 - this.filled, bytes.length);
      this.block.set(bytes.subarray(0, take), this.filled);
      this.filled += take;
      i = take;
      if (this.filled < 64) return this;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; i + 64 <= bytes.length; i += 64) this.compress(bytes, i);
    this.block.set(bytes.subarray(i), 0);
    this.filled = bytes.length - i;
    return this;
  }

  hex(): string {
    const bits = this.length * 8;
    const tail = new Uint8Array(((this.filled + 9 + 63) >> 6) << 6);
    tail.set(this.block.subarray(0, this.filled));
    tail[this.filled] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let i = 0; i < tail.length; i += 64) this.compress(tail, i);
    return Array.from(this.state, (word) => (word >>> 0).toString(16).padStart(8, "0")).join("");
  }

  private compress(bytes: Uint8Array, at: number): void {
    const w = this.w;
    for (let t = 0; t < 16; t++) {
      const j = at + t * 4;
      w[t] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15];
      const b = w[t - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    const s = this.state;
    let a = s[0],
      b = s[1],
      c = s[2],
      d = s[3],
      e = s[4],
      f = s[5],
      g = s[6],
      h = s[7];
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    s[0] = (s[0] + a) | 0;
    s[1] = (s[1] + b) | 0;
    s[2] = (s[2] + c) | 0;
    s[3] = (s[3] + d) | 0;
    s[4] = (s[4] + e) | 0;
    s[5] = (s[5] + f) | 0;
    s[6] = (s[6] + g) | 0;
    s[7] = (s[7] + h) | 0;
  }
}

/** Gives the thread back (other extensions, the protocol) between slices of work. */
const breathe = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Base64 characters per slice: 48 KB of bytes, well under a second of QuickJS on a slow machine. */
const SLICE_CHARS = 65_536;

/** `crypto.subtle.digest`, where the sandbox has it (native, far faster than the loop above). */
type Digest = (algorithm: string, data: Uint8Array) => Promise<ArrayBuffer>;
function nativeDigest(): Digest | undefined {
  const subtle = (globalThis as { crypto?: { subtle?: { digest?: Digest } } }).crypto?.subtle;
  return typeof subtle?.digest === "function" ? subtle.digest.bind(subtle) : undefined;
}

function decodeSlice(base64: string): Uint8Array {
  const binary = atob(base64);
  const chunk = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) chunk[i] = binary.charCodeAt(i);
  return chunk;
}

/**
 * The SHA-256 of bytes given as base64 (what `ctx.files.read(path, {encoding: "base64"})` gives),
 * a slice at a time, giving the thread back between slices.
 */
export async function sha256OfBase64(base64: string): Promise<{ hex: string; bytes: number }> {
  const digest = nativeDigest();
  const chunks: Uint8Array[] = [];
  const hash = new Sha256();
  let bytes = 0;
  for (let at = 0; at < base64.length; at += SLICE_CHARS) {
    const chunk = decodeSlice(base64.slice(at, at + SLICE_CHARS));
    if (digest) chunks.push(chunk);
    else hash.update(chunk);
    bytes += chunk.length;
    if (at + SLICE_CHARS < base64.length) await breathe();
  }
  if (!digest) return { hex: hash.hex(), bytes };
  const all = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  const result = new Uint8Array(await digest("SHA-256", all));
  return { hex: Array.from(result, (b) => b.toString(16).padStart(2, "0")).join(""), bytes };
}

/** The SHA-256 of bytes already in memory, a slice at a time (text typed into the tool). */
export async function sha256OfBytes(bytes: Uint8Array): Promise<string> {
  const digest = nativeDigest();
  if (digest)
    return Array.from(new Uint8Array(await digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
  const hash = new Sha256();
  for (let at = 0; at < bytes.length; at += 49_152) {
    hash.update(bytes.subarray(at, at + 49_152));
    if (at + 49_152 < bytes.length) await breathe();
  }
  return hash.hex();
}
