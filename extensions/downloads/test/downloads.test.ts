/**
 * Downloads with @svc/testkit (`svckit test`): ~/Downloads is a folder the test fills as browsers
 * do (Chrome's .crdownload, Firefox's .part beside its placeholder, Safari's .download bundle), and
 * `stat`'s sizes are replayed from test/recordings (written from the coreutils manual).
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadExtension } from "@svc/testkit";

const roots: string[] = [];
after(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function folder(files: string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "svc-downloads-"));
  roots.push(root);
  for (const file of files) {
    await mkdir(join(root, file, ".."), { recursive: true });
    await writeFile(join(root, file), "");
  }
  return root;
}

const load = (downloads: string) =>
  loadExtension(".", {
    folders: { "~/Downloads": downloads },
    programs: "test/recordings/downloading.programs.json",
  });

type Items = { id: string; title: string; subtitle?: string; state?: string; actions?: { id: string }[] }[];
const itemsOf = (blip: { data: unknown } | undefined) => (blip?.data as { items: Items }).items;

test("downloads under way: each with its browser and how much has arrived, then how fast", async (t) => {
  const dir = await folder(["film.mkv.crdownload", "notes.pdf.part", "notes.pdf", "older.zip"]);
  const ext = await load(dir);
  t.after(() => ext.dispose());
  await ext.run("launch");
  let blip = ext.blip("downloads");
  assert.equal(blip?.layout, "list");
  assert.equal(blip?.title, "Downloading 2");
  assert.equal(blip?.state, "running");
  assert.deepEqual(
    itemsOf(blip).map((i) => [i.title, i.subtitle, i.state]),
    [
      ["film.mkv", "Chrome · 100 MB so far", "running"],
      ["notes.pdf", "Firefox · 1.0 MB so far", "running"],
    ],
  );
  assert.equal(blip?.staleAfter, new Date(ext.clock.now() + 15_000).toISOString());
  // Looks again in 5 s while something downloads: 10 MB more in 5 s.
  assert.equal(ext.nextRunAt, ext.clock.now() + 5_000);
  await ext.clock.advance("5s");
  blip = ext.blip("downloads");
  assert.deepEqual(
    itemsOf(blip).map((i) => i.subtitle),
    ["Chrome · 110 MB so far · 2.0 MB/s", "Firefox · 1.0 MB so far"],
  );
  assert.deepEqual(ext.denials, []);
});

test("a finished download shows as done with Clear; a cancelled one leaves; Clear empties the list", async (t) => {
  const dir = await folder(["film.mkv.crdownload", "notes.pdf.part", "notes.pdf"]);
  const ext = await load(dir);
  t.after(() => ext.dispose());
  await ext.run("launch");
  // Chrome renames its file when whole; Firefox's cancelled download takes both its files away.
  await rename(join(dir, "film.mkv.crdownload"), join(dir, "film.mkv"));
  await rm(join(dir, "notes.pdf.part"));
  await rm(join(dir, "notes.pdf"));
  await ext.clock.advance("1m");
  await ext.event({ type: "file", paths: [join(dir, "film.mkv")] });
  const blip = ext.blip("downloads");
  assert.equal(blip?.title, "Downloads");
  assert.equal(blip?.state, "success");
  const [film, ...rest] = itemsOf(blip);
  assert.equal(rest.length, 0);
  assert.equal(film?.title, "film.mkv");
  assert.equal(film?.subtitle, "Done · just now · 100 MB");
  assert.deepEqual(
    film?.actions?.map((a) => a.id),
    ["clear"],
  );
  await ext.action("downloads", "clear", { itemId: film!.id });
  assert.deepEqual(ext.blip("downloads")?.data, { value: "Nothing downloading", label: "Watching ~/Downloads" });
});

test("a done download leaves the list after an hour", async (t) => {
  const dir = await folder(["film.mkv.crdownload", "notes.pdf.part", "notes.pdf"]);
  const ext = await load(dir);
  t.after(() => ext.dispose());
  await ext.run("launch");
  await rename(join(dir, "film.mkv.crdownload"), join(dir, "film.mkv"));
  await rm(join(dir, "notes.pdf.part"));
  await ext.event({ type: "file", paths: [dir] });
  // Firefox's placeholder is the whole file once its .part is gone: both are done.
  assert.deepEqual(
    itemsOf(ext.blip("downloads")).map((i) => [i.title, i.state]),
    [
      ["film.mkv", "success"],
      ["notes.pdf", "success"],
    ],
  );
  await ext.clock.advance("59m");
  assert.equal(ext.blip("downloads")?.layout, "list");
  await ext.clock.advance("6m");
  assert.deepEqual(ext.blip("downloads")?.data, { value: "Nothing downloading", label: "Watching ~/Downloads" });
});

test("Safari's .download bundle is measured inside", async (t) => {
  const dir = await folder(["Report.pdf.download/Report.pdf", "Report.pdf.download/Info.plist"]);
  const ext = await load(dir);
  t.after(() => ext.dispose());
  await ext.run("launch");
  assert.deepEqual(
    itemsOf(ext.blip("downloads")).map((i) => [i.title, i.subtitle]),
    [["Report.pdf", "Safari · 2.0 MB so far"]],
  );
});

test("nothing downloading: says what it watches", async (t) => {
  const ext = await load(await folder(["older.zip"]));
  t.after(() => ext.dispose());
  await ext.run("launch");
  const blip = ext.blip("downloads");
  assert.equal(blip?.state, "idle");
  assert.deepEqual(blip?.data, { value: "Nothing downloading", label: "Watching ~/Downloads" });
  assert.equal(ext.nextRunAt, ext.clock.now() + 5 * 60_000);
});

test("no Downloads folder (this VM): says so and what to do", async (t) => {
  const home = await folder([]);
  const ext = await loadExtension(".", {
    folders: { "~": home },
    programs: "test/recordings/downloading.programs.json",
  });
  t.after(() => ext.dispose());
  await ext.run("launch");
  const blip = ext.blip("downloads");
  assert.equal(blip?.state, "warning");
  assert.deepEqual(blip?.data, {
    value: "No Downloads folder",
    label: "Create ~/Downloads, or have your browser save there",
  });
});
