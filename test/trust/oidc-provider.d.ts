/** The little of oidc-provider's API the test authorization server uses (the package ships no types). */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** The access tokens it issued and still honours (undefined: unknown, expired or revoked). */
    AccessToken: { find(token: string): Promise<object | undefined> };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    on(event: string, listener: (...args: any[]) => void): this;
  }
}
