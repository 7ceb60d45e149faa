/**
 * svc-runtime in the test's own process: the runtime's real service (the one `svc-runtime`
 * runs) on one end of a pair of JSON-RPC connections, the test's fake app on the other. Every
 * message crosses as JSON text, as on the pipe. The differences from the app are where its
 * sandboxes run (the current thread, so the manual clock reaches them) and where fetch hops go
 * (the recording, when there is one).
 */
import {
  Connection,
  DEFAULT_CONFIG,
  RuntimeService,
  type Clock,
  type RuntimeConfig,
  type SandboxFactory,
} from "@svc/runtime";
import { Sandbox, type Capabilities, type ForwardedCalls, type SandboxClock, type SandboxEvent } from "@svc/sandbox";

/** Two ends of one pipe: every message is delivered as the line it would be on it. */
function pair(
  note: (message: string) => void,
  beforeRequest: (method: string) => void,
): { runtime: Connection; host: Connection } {
  let runtime!: Connection;
  let host!: Connection;
  runtime = new Connection(
    { write: (message) => host.handleFrame({ kind: "line", text: JSON.stringify(message) }) },
    { note, beforeRequest },
  );
  host = new Connection(
    { write: (message) => runtime.handleFrame({ kind: "line", text: JSON.stringify(message) }) },
    { note },
  );
  return { runtime, host };
}

export interface InProcessRuntimeOptions {
  clock: SandboxClock;
  capabilities: Capabilities;
  timeZone?: string;
  /** The guest's default locale (`Intl`, `toLocaleString`): the person's, as `initialize` gives it in the app. */
  locale?: string;
  /** Every sandbox event (denials, interrupted slices, memory-limit hits), as the runtime sees them. */
  onSandboxEvent(event: SandboxEvent): void;
  /** Wraps each sandbox's forwarded calls (the test kit counts them to know when work is done). */
  forwardedCalls?(host: ForwardedCalls): ForwardedCalls;
  config?: Partial<RuntimeConfig>;
  note(message: string): void;
}

/**
 * @example
 * const { host, stop } = startInProcessRuntime({ clock, capabilities, onSandboxEvent, note });
 * await host.sendRequest(Initialize, { protocolVersion: 1, dataDir });
 */
export function startInProcessRuntime(options: InProcessRuntimeOptions): { host: Connection; stop(): Promise<void> } {
  let service: RuntimeService | undefined;
  // As in svc-runtime: requests before initialize and after shutdown are refused by the service's guard.
  const { runtime, host } = pair(options.note, (method) => service?.guard(method));
  const sandboxes: SandboxFactory = {
    create: (sandboxOptions, listeners) =>
      Sandbox.create(
        sandboxOptions,
        {
          ...listeners,
          forwarded: options.forwardedCalls ? options.forwardedCalls(listeners.forwarded) : listeners.forwarded,
          onEvent: (event) => {
            options.onSandboxEvent(event);
            listeners.onEvent?.(event);
          },
        },
        {
          clock: options.clock,
          capabilities: options.capabilities,
          timeZone: options.timeZone,
          locale: options.locale,
        },
      ),
  };
  const clock: Clock & { advance(ms: number): number } = {
    now: () => options.clock.now(),
    advance: () => options.clock.now(),
  };
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  service = new RuntimeService({
    connection: runtime,
    config: { ...DEFAULT_CONFIG, ...options.config, testHooks: false },
    clock,
    sandboxes,
    runtimeVersion: "testkit",
    note: options.note,
    onStopped: () => stopped(),
  });
  service.register();
  return {
    host,
    stop: async () => {
      await service?.stop();
      await done;
    },
  };
}
