/**
 * `<svc-ticker>`: a clock that ticks on its own — time left until `to` (countdowns) or time
 * since `from` (sessions). It rewrites only its own text, once a second on the second, and only
 * while it is in the page; nothing else re-renders.
 */
import { formatClock } from "../format/values.js";

export class SvcTicker extends HTMLElement {
  /** Set when the host is gone: no clock in the page may keep ticking as if live. */
  private static frozen = false;
  private static readonly live = new Set<SvcTicker>();

  /** Stops every ticker in the page for good (the host is gone). */
  static freezeAll(): void {
    SvcTicker.frozen = true;
    for (const ticker of SvcTicker.live) ticker.disconnectedCallback();
  }

  private timer: ReturnType<typeof setTimeout> | undefined;
  private target = 0;
  private mode: "left" | "since" = "left";

  /** Counts down to `at` (ms). */
  set to(at: number) {
    this.mode = "left";
    this.target = at;
    this.tick(false);
  }

  /** Counts up from `at` (ms). */
  set from(at: number) {
    this.mode = "since";
    this.target = at;
    this.tick(false);
  }

  connectedCallback(): void {
    this.setAttribute("role", "timer");
    SvcTicker.live.add(this);
    this.tick(true);
  }

  disconnectedCallback(): void {
    SvcTicker.live.delete(this);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(schedule: boolean): void {
    const now = Date.now();
    const ms = this.mode === "left" ? this.target - now : now - this.target;
    const text = this.mode === "left" && ms <= 0 ? "0:00" : formatClock(ms);
    if (this.textContent !== text) this.textContent = text;
    if (!schedule && this.timer !== undefined) return;
    if (SvcTicker.frozen || !this.isConnected || (this.mode === "left" && ms <= 0)) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    // Wake on the next whole second of the shown value.
    const wait = this.mode === "left" ? ((ms % 1000) + 1000) % 1000 || 1000 : 1000 - (((ms % 1000) + 1000) % 1000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick(true);
    }, wait + 5);
  }
}

if (!customElements.get("svc-ticker")) customElements.define("svc-ticker", SvcTicker);
