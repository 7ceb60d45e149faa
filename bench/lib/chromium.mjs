// Debian's Chromium for the UI benches, launched as test/ui/harness.ts launches it (a fresh
// --user-data-dir per browser; never a browser download of playwright's own).
export const CHROMIUM = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
