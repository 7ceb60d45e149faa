#!/usr/bin/env node
// The `svc-runtime` command: committed (not built) so npm links it on the first `npm install`;
// what it runs is built into dist/ by that install's `prepare` step (`npm run build`).
import "../dist/bundle/main.js";
