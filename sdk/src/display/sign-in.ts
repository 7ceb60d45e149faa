/**
 * The one sentence a sign-in page is offered with, in the terminal and in the page alike: which
 * service, for which extension, and where the browser goes — so a person knows what the button
 * does before pressing it.
 */

/** A sign-in page being opened: the service's title and the title of the extension that asked. */
export interface SignInPage {
  service: string;
  extension: string;
}

/** The host and port of an address (the address itself when it does not parse). */
function hostAndPort(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * @example
 * signInPrompt({ service: "GitHub", extension: "Pull requests" }, "https://github.com/login/oauth/authorize?…")
 * // "Sign in to GitHub for Pull requests — opens github.com in your browser"
 */
export function signInPrompt(page: SignInPage, url: string): string {
  return `Sign in to ${page.service} for ${page.extension} — opens ${hostAndPort(url)} in your browser`;
}
