// The cluster a live review talks to, from a kubeconfig file the user named
// (never the ambient ~/.kube/config or $KUBECONFIG): its server, the CA
// that signs it, and one identity (a client certificate or a bearer token).
// exec plugins and auth-provider entries are refused, not run: chartroom
// starts no program a kubeconfig names.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { load } from "js-yaml";
import { ChartroomError } from "../errors/index.js";
import { isRecord } from "../util/json.js";

export interface ClusterAccess {
  /** The kubeconfig file, absolute. */
  file: string;
  context: string;
  /** https://host:port */
  server: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  token?: string;
  insecure: boolean;
}

type Entry = Record<string, unknown>;

/** Read the kubeconfig `file` for `context` (else the file's current-context). */
export async function loadKubeconfig(file: string, context?: string): Promise<ClusterAccess> {
  const path = resolve(file);
  const invalid = (message: string, hint: string) => new ChartroomError("CLUSTER_CONFIG_INVALID", message, { place: { file: path }, hint });
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw invalid(`the kubeconfig cannot be read (${error.code ?? "error"})`, "pass the path of a kubeconfig file with --kubeconfig");
  });
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch {
    throw invalid("the kubeconfig is not valid YAML", "pass a kubeconfig file (kubectl config view --raw writes one)");
  }
  if (!isRecord(parsed)) throw invalid("the kubeconfig is not a map", "pass a kubeconfig file (kubectl config view --raw writes one)");
  const named = (list: string, name: string, inner: string): Entry | undefined => {
    const entries = Array.isArray(parsed[list]) ? (parsed[list] as unknown[]) : [];
    const found = entries.find((item) => isRecord(item) && item.name === name);
    return isRecord(found) && isRecord(found[inner]) ? (found[inner] as Entry) : undefined;
  };
  const names = (list: string) => (Array.isArray(parsed[list]) ? (parsed[list] as unknown[]) : []).map((item) => (isRecord(item) ? String(item.name) : ""));
  const wanted = context ?? (typeof parsed["current-context"] === "string" ? parsed["current-context"] : undefined);
  if (wanted === undefined || wanted === "")
    throw invalid("the kubeconfig names no current-context", `name one with --context: ${names("contexts").join(", ")}`);
  const ctx = named("contexts", wanted, "context");
  if (ctx === undefined) throw invalid(`the kubeconfig has no context "${wanted}"`, `contexts: ${names("contexts").join(", ") || "none"}`);
  const cluster = named("clusters", String(ctx.cluster), "cluster");
  if (cluster === undefined || typeof cluster.server !== "string") throw invalid(`context "${wanted}" names no cluster with a server`, "fix the kubeconfig");
  const user = named("users", String(ctx.user), "user") ?? {};
  if (user.exec !== undefined || user["auth-provider"] !== undefined) {
    throw invalid(
      `context "${wanted}" authenticates with an ${user.exec !== undefined ? "exec plugin" : "auth-provider"}, which chartroom does not run`,
      "give chartroom a kubeconfig with a client certificate or a token (a ServiceAccount token for review, for example)",
    );
  }
  const base = dirname(path);
  const bytes = async (data: unknown, fileKey: unknown, what: string): Promise<Buffer | undefined> => {
    if (typeof data === "string") return Buffer.from(data, "base64");
    if (typeof fileKey !== "string") return undefined;
    return readFile(resolve(base, fileKey)).catch(() => {
      throw invalid(`the ${what} file ${fileKey} cannot be read`, "fix the path in the kubeconfig (relative paths are to its folder)");
    });
  };
  const server = cluster.server;
  if (!/^https:\/\//.test(server)) throw invalid(`the server ${server} is not https://`, "chartroom talks to API servers over TLS only");
  const token = typeof user.token === "string" ? user.token : (await bytes(undefined, user.tokenFile, "tokenFile"))?.toString("utf8").trim();
  const access: ClusterAccess = { file: path, context: wanted, server: server.replace(/\/+$/, ""), insecure: cluster["insecure-skip-tls-verify"] === true };
  const ca = await bytes(cluster["certificate-authority-data"], cluster["certificate-authority"], "certificate-authority");
  const cert = await bytes(user["client-certificate-data"], user["client-certificate"], "client-certificate");
  const key = await bytes(user["client-key-data"], user["client-key"], "client-key");
  if (ca !== undefined) access.ca = ca;
  if (cert !== undefined) access.cert = cert;
  if (key !== undefined) access.key = key;
  if (token !== undefined) access.token = token;
  return access;
}
