/**
 * A guest that tampers with the prototypes the engine itself uses cannot wedge its sandbox: a
 * throwing setter on `Array.prototype[0]` once ran inside QuickJS's JSON.stringify, so every
 * bridge call threw, the outcome could not be reported, and the sandbox never answered again.
 * The prelude now falls back to an encoder that uses only what it captured at start
 * (guest/plain-json.ts), and its own lists never write through an index.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Sandbox } from "./sandbox.js";
import { UPDATE, optionsFor, recorder } from "./sandbox.fixtures.js";

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

const TAMPER = {
  "Array.prototype[0]": `Object.defineProperty(Array.prototype, "0", { set() { throw new Error("tampered"); }, configurable: true });`,
  "Object.prototype[1]": `Object.defineProperty(Object.prototype, "1", { set() { throw new Error("tampered"); }, configurable: true });`,
};

describe("prototype tampering", () => {
  for (const [where, tamper] of Object.entries(TAMPER)) {
    it(`a throwing setter on ${where}: every bridge call still answers, this invocation and the next`, async () => {
      const rec = recorder();
      const sandbox = await Sandbox.create(
        optionsFor(`${tamper}
          module.exports = { async update(ctx) {
            await ctx.storage.set("k", "v");
            const stored = await ctx.storage.get("k");
            await new Promise((resolve) => setTimeout(resolve, 1));
            console.log("still", { talking: [1, 2] });
            return { stored, nested: [[1, { a: [2] }], "x"], number: new Intl.NumberFormat("en").format(1234.5),
              date: String(new Date(0)).length > 0, locale: (1234.5).toLocaleString("de-DE") };
          } };`),
        rec,
      );
      sandboxes.push(sandbox);
      await sandbox.load();
      const expected = {
        stored: "v",
        nested: [[1, { a: [2] }], "x"],
        number: "1,234.5",
        date: true,
        locale: "1.234,5",
      };
      expect(await sandbox.invoke(UPDATE)).toEqual(expected);
      expect(await sandbox.invoke(UPDATE)).toEqual(expected);
      // console's formatting is the guest's own code on its own arrays: with Array.prototype[0]
      // tampered it cannot format, and says so; the line still reaches the log
      const line =
        where === "Array.prototype[0]"
          ? "(console: could not format the message: tampered)"
          : "still { talking: [ 1, 2 ] }";
      expect(rec.logs()).toEqual([line, line]);
      expect(rec.crashes).toEqual([]);
    });
  }

  it("the fallback still refuses what the host refuses: nesting deeper than 64 levels", async () => {
    const sandbox = await Sandbox.create(
      optionsFor(`${TAMPER["Array.prototype[0]"]}
        module.exports = { update() { let deep = {}; for (let i = 0; i < 70; i++) deep = { deep }; return deep; } };`),
      recorder(),
    );
    sandboxes.push(sandbox);
    await sandbox.load();
    await expect(sandbox.invoke(UPDATE)).rejects.toThrow(
      "the result cannot be returned: invoke.done: the arguments are nested more than 64 levels deep",
    );
  });
});
