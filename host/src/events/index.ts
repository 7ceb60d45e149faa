/** What the host reports, declared once, and the one bus it travels on. */
export * from "./host-event.js";
export {
  HostEvents,
  DEFAULT_BACKLOG,
  type HostListener,
  type LogListener,
  type LogStreamEvent,
  type Subscription,
} from "./bus.js";
