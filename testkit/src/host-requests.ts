/**
 * The app's end of the pipe answering the runtime's `host.*` requests with the fake host. Each
 * method comes from the protocol module (declared once); a refusal goes back as the app's error
 * answer, which the guest sees as its `ctx` call rejecting with that message.
 */
import { ErrorCodes, HOST_REQUESTS, ResponseError, type Connection, type HostOp, type RequestType } from "@svc/runtime";
import type { FakeHost } from "./fake-host.js";

/** @example answerHostCalls(connection, new FakeHost({ secrets: { apiKey: "k-1" } })); */
export function answerHostCalls(connection: Connection, host: FakeHost): void {
  for (const [op, type] of Object.entries(HOST_REQUESTS) as [HostOp, RequestType<any, any>][]) {
    connection.onRequest(type, async (params: unknown) => {
      try {
        return await host.answer(op, params);
      } catch (error) {
        throw new ResponseError(ErrorCodes.HostCallFailed, (error as Error).message);
      }
    });
  }
}
