import { describe, expect, it } from "vitest";
import { signInPrompt } from "./sign-in.js";

describe("signInPrompt", () => {
  it("names the service, the extension and the host the browser goes to", () => {
    expect(
      signInPrompt(
        { service: "GitHub", extension: "Pull requests" },
        "https://github.com/login/oauth/authorize?client_id=x",
      ),
    ).toBe("Sign in to GitHub for Pull requests — opens github.com in your browser");
  });

  it("keeps a port and shows an address that does not parse as it is", () => {
    expect(signInPrompt({ service: "Demo", extension: "Sign-in" }, "https://localhost:8443/authorize")).toBe(
      "Sign in to Demo for Sign-in — opens localhost:8443 in your browser",
    );
    expect(signInPrompt({ service: "Demo", extension: "X" }, "not a url")).toBe(
      "Sign in to Demo for X — opens not a url in your browser",
    );
  });
});
