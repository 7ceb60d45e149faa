/** `deploys`: each running deploy as a progress blip with its pipeline's stages. */
import { COMMON_CODE } from "../snippets.js";
import type { Template } from "../template.js";

const source = `import { defineExtension, progress, type StageState } from "@svc/api";

${COMMON_CODE}

/** One deploy as your API describes it: a service, an environment and its stages in order. */
interface Deploy {
  id: string;
  service: string;
  environment: string;
  stages: Array<{ name: string; status: StageState }>;
  url?: string;
}

const STAGES = ["Build", "Test", "Migrate", "Release", "Verify"];

/** A sample deploy that moves one stage on every minute, so you can watch the blip change. */
function sampleDeploys(now: number): Deploy[] {
  const minute = Math.floor(now / 60_000);
  const at = minute % (STAGES.length + 1);
  const run = Math.floor(minute / (STAGES.length + 1));
  const stages = STAGES.map((name, i) => ({
    name,
    status: (i < at ? "done" : i === at ? "running" : "pending") as StageState,
  }));
  return [{ id: \`sample-\${run}\`, service: "web", environment: "production", stages }];
}

const finished = (status: StageState) => status === "done" || status === "skipped";

export default defineExtension<Prefs>({
  async update(ctx) {
    const url = ctx.preferences.apiUrl?.trim();
    // Sample deploys shown before the API URL was set leave as soon as it is: a sample must
    // never pass for a real deploy.
    const samples = (await ctx.storage.get<string[]>("samples")) ?? [];
    if (url && samples.length > 0) {
      for (const key of samples) await ctx.remove(key);
      await ctx.storage.set("samples", []);
    }
    const deploys = url ? await fetchJson<Deploy[]>(url, ctx.preferences.apiToken) : sampleDeploys(Date.now());
    // Deploys already ended, so a finished one is not shown again on every run.
    const ended = (await ctx.storage.get<string[]>("ended")) ?? [];
    let running = false;
    for (const deploy of deploys) {
      const key = \`deploy-\${deploy.id}\`;
      if (ended.includes(key)) continue;
      if (!url && !samples.includes(key)) {
        samples.push(key);
        await ctx.storage.set("samples", samples.slice(-10));
      }
      const failed = deploy.stages.find((stage) => stage.status === "failed");
      const current = deploy.stages.find((stage) => stage.status === "running");
      const done = deploy.stages.filter((stage) => finished(stage.status)).length;
      const complete = done === deploy.stages.length;
      await ctx.emit(
        progress(key, {
          title: titled(\`Deploying \${deploy.service}\`, !url),
          subtitle: url ? deploy.environment : SAMPLE_NOTE,
          icon: "shippingbox",
          state: failed ? "failure" : complete ? "success" : "running",
          fraction: deploy.stages.length > 0 ? done / deploy.stages.length : 0,
          step: failed ? \`\${failed.name} failed\` : (current?.name ?? "Finished"),
          stages: deploy.stages.map((stage) => ({ title: stage.name, state: stage.status })),
          actions: deploy.url ? [{ id: "open", title: "Open", url: deploy.url }] : undefined,
        }),
      );
      if (failed || complete) {
        await ctx.end(key, { state: failed ? "failure" : "success", dismissAfter: 300 });
        ended.push(key);
      } else {
        running = true;
      }
    }
    await ctx.storage.set("ended", ended.slice(-50));
    // While something deploys, look again sooner than the manifest's interval.
    return running ? { nextRunAfter: 15 } : {};
  },
});
`;

export const deploys: Template = {
  name: "deploys",
  description: "Running deploys with their pipeline stages, ended when they finish",
  icon: "shippingbox",
  categories: ["developer"],
  interval: "1m",
  apiExample: "https://api.example.com/deploys?status=active",
  apiShape: `[{ "id": "d-42", "service": "web", "environment": "production", "url": "https://example.com/d/42",
  "stages": [{ "name": "Build", "status": "done" }, { "name": "Test", "status": "running" }] }]`,
  source,
  apiSample: [
    {
      id: "d-42",
      service: "web",
      environment: "production",
      stages: [
        { name: "Build", status: "done" },
        { name: "Test", status: "running" },
        { name: "Release", status: "pending" },
        { name: "Verify", status: "pending" },
      ],
    },
  ],
  tests: `
test("a running deploy from the API, with its stages; it looks again in 15 s while it runs", async (t) => {
  const ext = await loadExtension(".", withApi);
  t.after(() => ext.dispose());
  assert.deepEqual(await ext.run(), { nextRunAfter: 15 });
  const deploy = ext.blip("deploy-d-42");
  assert.equal(deploy?.title, "Deploying web");
  assert.equal(deploy?.state, "running");
  assert.deepEqual(deploy?.data, {
    fraction: 0.25,
    step: "Test",
    stages: [
      { title: "Build", state: "done" },
      { title: "Test", state: "running" },
      { title: "Release", state: "pending" },
      { title: "Verify", state: "pending" },
    ],
  });
});

test("the sample deploys shown before leave once an API URL is set", async (t) => {
  const ext = await loadExtension(".", { ...withApi, storage: { samples: ["deploy-sample-1"] } });
  t.after(() => ext.dispose());
  await ext.run();
  assert.deepEqual(await ext.storage.get("samples"), []);
  assert.deepEqual(ext.blips.map((blip) => blip.title), ["Deploying web"]);
});

test("the sample deploy moves on a stage a minute, on the test's clock", async (t) => {
  const ext = await loadExtension(".", { now: "2025-03-01T09:00:00Z" });
  t.after(() => ext.dispose());
  await ext.run();
  const step = () => (ext.blips[0]?.data as { step?: string }).step;
  assert.equal(step(), "Build");
  // Runs every 15 s while deploying: at 09:00:15, :30, :45 and 09:01:00.
  await ext.clock.advance("1m");
  assert.equal(step(), "Test");
  await ext.clock.advance("2m");
  assert.equal(step(), "Release");
});
`,
};
