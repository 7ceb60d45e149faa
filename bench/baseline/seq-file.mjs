// The baseline runtime's seq numbers (SPEC.md processing rule 4): the last seq per blip id in
// Data/<id>/seq.json, written atomically (temp + rename) before any notification carrying it is
// sent; writes in a burst share one. The same work the real runtime's SeqStore does.
import { mkdirSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export class SeqFile {
  #file;
  #last = {};
  #writing;
  #dirty = false;

  constructor(dir) {
    mkdirSync(dir, { recursive: true });
    this.#file = join(dir, "seq.json");
  }

  /** The seq `next(blipId)` would give now. */
  peek(blipId) {
    return (this.#last[blipId] ?? 0) + 1;
  }

  /** The next seq of `blipId`; resolves once the file holds it. */
  async next(blipId) {
    const seq = this.peek(blipId);
    this.#last[blipId] = seq;
    this.#dirty = true;
    this.#writing ??= this.#writeLoop();
    await this.#writing;
    return seq;
  }

  async #writeLoop() {
    while (this.#dirty) {
      this.#dirty = false;
      const temp = `${this.#file}.tmp`;
      await writeFile(temp, JSON.stringify({ last: this.#last }));
      await rename(temp, this.#file);
    }
    this.#writing = undefined;
  }
}
