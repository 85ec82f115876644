// The only requests a live review makes: a GET, a server-side apply with
// dryRun=All, and the self-reviews that ask what the identity may do (the
// server keeps nothing of them). Anything else is refused here, before it is
// sent, so no code path of a review can write to a cluster. Credentials go to the
// kubeconfig's server and nowhere else (no redirect is followed).
import { ChartroomError, InternalError } from "../errors/index.js";
import type { ClusterAccess } from "./kubeconfig.js";
import { onFirstUse } from "../util/on-first-use.js";

// Only a live review asks a cluster.
const https = onFirstUse<typeof import("node:https")>("node:https");

export interface Answer {
  status: number;
  body: unknown;
}

/** What chartroom sends as its User-Agent, so an audit log tells its requests apart. */
export const USER_AGENT = "chartroom-live-review";

const LIMIT = 16 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

const SELF_REVIEWS = {
  SelfSubjectReview: "/apis/authentication.k8s.io/v1/selfsubjectreviews",
  SelfSubjectAccessReview: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
  SelfSubjectRulesReview: "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
} as const;
export type SelfReview = keyof typeof SELF_REVIEWS;
const SELF_REVIEW_PATHS: ReadonlySet<string> = new Set(Object.values(SELF_REVIEWS));

export interface KubeClient {
  server: string;
  get(path: string): Promise<Answer>;
  /** Server-side apply of `object` as `manager`, dry run only: what the server would store. */
  dryRunApply(path: string, object: unknown, manager: string, force?: boolean): Promise<Answer>;
  /** Ask the server about the identity itself: who it is, whether it may do one thing, what it may do in a namespace (never stored). */
  selfReview(kind: SelfReview, spec?: unknown): Promise<Answer>;
  /** Requests sent so far, for the report. */
  requests(): number;
}

export function kubeClient(access: ClusterAccess): KubeClient {
  let sent = 0;
  const send = (method: "GET" | "PATCH" | "POST", path: string, body?: string, contentType?: string): Promise<Answer> => {
    if (method === "PATCH" && !/[?&]dryRun=All(&|$)/.test(path)) throw new InternalError(`refused: a write to ${path} without dryRun=All`);
    if (method === "POST" && !SELF_REVIEW_PATHS.has(path)) throw new InternalError(`refused: a create at ${path}`);
    sent++;
    return new Promise((done, fail) => {
      const url = new URL(path, `${access.server}/`);
      const headers: Record<string, string> = { Accept: "application/json", "User-Agent": USER_AGENT };
      if (access.token !== undefined) headers.Authorization = `Bearer ${access.token}`;
      if (contentType !== undefined) headers["Content-Type"] = contentType;
      const req = https().request(
        url,
        {
          method,
          headers,
          ...(access.ca === undefined ? {} : { ca: access.ca }),
          ...(access.cert === undefined ? {} : { cert: access.cert }),
          ...(access.key === undefined ? {} : { key: access.key }),
          rejectUnauthorized: !access.insecure,
          timeout: TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > LIMIT) {
              req.destroy(new InternalError(`the answer to ${url.pathname} is over ${LIMIT} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // a plain-text answer (an error page): kept as text
            }
            if (res.statusCode === 401) {
              fail(
                new ChartroomError("CLUSTER_FAILED", `the API server ${access.server} refused the identity of context ${access.context} (401 Unauthorized)`, {
                  place: { file: access.file, url: access.server },
                  hint: "the kubeconfig's certificate or token is not accepted: refresh it",
                }),
              );
              return;
            }
            done({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on("error", fail);
        },
      );
      req.on("timeout", () => req.destroy(new InternalError(`no answer within ${TIMEOUT_MS / 1000} s`)));
      req.on("error", (error: Error) =>
        fail(
          new ChartroomError("CLUSTER_FAILED", `the API server ${access.server} (context ${access.context}) could not be reached: ${error.message}`, {
            place: { file: access.file, url: access.server },
            hint: "check the server and CA in the kubeconfig, and that the cluster is up",
          }),
        ),
      );
      if (body !== undefined) req.write(body);
      req.end();
    });
  };
  return {
    server: access.server,
    get: (path) => send("GET", path),
    dryRunApply: (path, object, manager, force = false) =>
      send(
        "PATCH",
        `${path}?dryRun=All&fieldManager=${encodeURIComponent(manager)}${force ? "&force=true" : ""}`,
        JSON.stringify(object),
        "application/apply-patch+yaml",
      ),
    selfReview: (kind, spec) => {
      const group = SELF_REVIEWS[kind].split("/")[2];
      return send("POST", SELF_REVIEWS[kind], JSON.stringify({ apiVersion: `${group}/v1`, kind, ...(spec === undefined ? {} : { spec }) }), "application/json");
    },
    requests: () => sent,
  };
}
