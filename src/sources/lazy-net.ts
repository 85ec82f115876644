import { createRequire } from "node:module";

// node:http, node:https and node:tls with everything they load, required at
// the first request: a run that asks no server (a folder repository, archives
// already in the store, a review from the cache) does not load them (≈8 ms).
// Here, in sources/, with the code that opens connections.
const require = createRequire(import.meta.url);

export const http = (): typeof import("node:http") => require("node:http");
export const https = (): typeof import("node:https") => require("node:https");
export const tls = (): typeof import("node:tls") => require("node:tls");
