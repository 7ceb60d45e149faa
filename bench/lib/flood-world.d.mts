// Types of flood-world.mjs for the TypeScript test that shares it (test/host/flood.test.ts).
import type { LIMITS } from "@svc/api";

export function writeFloodExtensions(bundled: string, limits: typeof LIMITS): void;

export interface FloodClient {
  v1(method: string, path: string, body?: unknown): Promise<Response>;
  /** Feed events seen so far: `extensions` updates and bytes. */
  counts: { extensions: number; bytes: number };
  /** The first UI feed event that matches; rejects if the feed closes first. */
  next(match: (event: any) => boolean): Promise<any>;
  healthMs(): Promise<number>;
  blipMs(): Promise<number>;
  flood(seconds: number): Promise<void>;
  close(): void;
}

export function connectFloodClient(host: { port: number; token: string }): Promise<FloodClient>;
