import { onFirstUse } from "../util/on-first-use.js";

// Here, in sources/, with the code that opens connections.
export const http = onFirstUse<typeof import("node:http")>("node:http");
export const https = onFirstUse<typeof import("node:https")>("node:https");
export const tls = onFirstUse<typeof import("node:tls")>("node:tls");
