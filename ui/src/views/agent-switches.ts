/**
 * Settings → an extension's tools for AI agents: one switch per tool, off until the person turns
 * it on (host/src/tools/agent-switches.ts keeps them). `svckit mcp` offers an agent only the tools
 * switched on here; a file path it sends still waits for the person's Allow in the notch.
 */
import { html, nothing, type TemplateResult } from "lit";
import { CAPS, shown } from "../format/text.js";
import type { PageTool } from "../tools/tray.js";

export interface AgentSwitchesContext {
  /** The extension's tools as the tools tray lists them. */
  tools: readonly PageTool[];
  status: ReadonlyMap<string, { ok: boolean; text: string }>;
  setAgents(toolId: string, enabled: boolean): void;
}

export function agentSwitchesView(ctx: AgentSwitchesContext): TemplateResult | typeof nothing {
  if (ctx.tools.length === 0) return nothing;
  return html`<h3>Tools for AI agents</h3>
    <p class="sub">An AI agent (through svckit mcp) may use only the tools switched on here. Files it names still need your Allow in the notch.</p>
    <ul class="agent-switches">${ctx.tools.map((tool) => {
      const said = ctx.status.get(`${tool.id}/agents`);
      return html`<li><label><input type="checkbox" role="switch" data-agent-tool=${tool.id} .checked=${tool.agents}
          @change=${(e: Event) => ctx.setAgents(tool.id, (e.target as HTMLInputElement).checked)} />
          <span dir="auto">${shown(tool.title, CAPS.label)}</span> available to agents</label>
        ${said ? html`<span class=${said.ok ? "saved" : "problem"} role="status">${shown(said.text, CAPS.body)}</span>` : nothing}</li>`;
    })}</ul>`;
}
