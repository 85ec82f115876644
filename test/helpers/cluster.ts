// A real Kubernetes control plane on loopback for the tests: Debian's etcd
// on tmpfs, kube-apiserver (RBAC, an audit log), kube-controller-manager,
// kube-scheduler and kwok with fake nodes, built by kube/build.sh. Every part
// runs in a process group of its own and stops with the cluster.
import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { builtBy } from "./built.js";
import { freePort } from "./registry.js";
import { kubectl as kubectlBinary } from "./kubectl.js";
import { runGroup, startDaemon, type Daemon, type ProcessOutcome } from "./process.js";

const run = promisify(execFile);

/** The folder kube/build.sh built: the control plane and kwok. */
export function kubeBin(): Promise<string> {
  return builtBy("kube/build.sh", 90 * 60_000);
}

export type Identity = "admin" | "deployer";

export interface Cluster {
  /** https://127.0.0.1:<port> */
  server: string;
  dir: string;
  /** A kubeconfig (YAML text) for an identity: admin is system:masters; deployer is the user "deployer", allowed what `grant` gave it. */
  kubeconfig(as?: Identity): string;
  /** The kubeconfig written to a file, for helm and kubectl. */
  kubeconfigFile(as?: Identity): string;
  /** kubectl against the cluster, in a process group of its own. */
  kubectl(args: string[], options?: { as?: Identity; input?: string }): Promise<ProcessOutcome>;
  /** Give the deployer these rules, cluster-wide (a ClusterRole and its binding). */
  grant(rules: object[]): Promise<void>;
  /** The audit log's events, one per request. */
  audit(): Promise<AuditEvent[]>;
  /** Nodes, pods and events, and the end of each part's log: for a failure message. */
  explain(): Promise<string>;
  /** How long the start took, in ms, for the note. */
  startedInMs: number;
  stop(): Promise<void>;
}

export interface AuditEvent {
  verb: string;
  requestURI: string;
  user: { username: string };
  objectRef?: { resource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number; message?: string };
  stage: string;
  requestReceivedTimestamp: string;
  userAgent?: string;
}

const SERVICE_RANGE = "10.0.0.0/24";

/**
 * Start a cluster; every part is stopped by `stop()` (also when the start
 * fails half-way). Takes 5–20 s on an idle 2-core machine.
 */
export async function startCluster(options: { nodes?: number } = {}): Promise<Cluster> {
  const begun = Date.now();
  const bins = await kubeBin();
  const dir = await mkdtemp(join(tmpdir(), "chartroom-cluster-"));
  // etcd's data on tmpfs: fsync on a loaded disk is what makes a small etcd slow.
  const data = await mkdtemp(join(existsShm() ? "/dev/shm" : tmpdir(), "chartroom-etcd-"));
  const parts: Daemon[] = [];
  const stop = async () => {
    for (const part of parts.reverse()) await part.stop();
    await rm(data, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    const pki = await certificates(join(dir, "pki"));
    const server = `https://127.0.0.1:${apiPort}`;
    const configs: Record<Identity, string> = {
      admin: kubeconfigText(server, pki.ca, pki.admin, "admin"),
      deployer: kubeconfigText(server, pki.ca, pki.deployer, "deployer"),
    };
    for (const [who, text] of Object.entries(configs)) await writeFile(join(dir, `${who}.kubeconfig`), text, { mode: 0o600 });
    const admin = join(dir, "admin.kubeconfig");

    parts.push(
      startDaemon(
        "etcd",
        [
          "--name=default",
          `--data-dir=${data}`,
          `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
          `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
          `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
          `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
          "--log-level=warn",
        ],
        { cwd: dir },
      ),
    );
    await writeFile(join(dir, "audit-policy.yaml"), "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n");
    parts.push(
      startDaemon(
        join(bins, "kube-apiserver"),
        [
          `--etcd-servers=http://127.0.0.1:${etcdPort}`,
          "--bind-address=127.0.0.1",
          "--advertise-address=127.0.0.1",
          `--secure-port=${apiPort}`,
          `--tls-cert-file=${pki.serving.cert}`,
          `--tls-private-key-file=${pki.serving.key}`,
          `--client-ca-file=${pki.ca.cert}`,
          "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
          `--service-account-key-file=${pki.serviceAccount.pub}`,
          `--service-account-signing-key-file=${pki.serviceAccount.key}`,
          `--service-cluster-ip-range=${SERVICE_RANGE}`,
          "--authorization-mode=RBAC",
          // It taints each new node not-ready until the node lifecycle controller (off, below) lifts it.
          "--disable-admission-plugins=TaintNodesByCondition",
          `--audit-policy-file=${join(dir, "audit-policy.yaml")}`,
          `--audit-log-path=${join(dir, "audit.log")}`,
          "--audit-log-format=json",
          "--v=0",
        ],
        { cwd: dir },
      ),
    );
    await until(() => apiGet(server, pki, "/readyz").then((status) => status === 200), "kube-apiserver /readyz", parts, 120_000);
    parts.push(
      startDaemon(
        join(bins, "kube-controller-manager"),
        [
          `--kubeconfig=${admin}`,
          "--leader-elect=false",
          "--secure-port=0",
          `--service-account-private-key-file=${pki.serviceAccount.key}`,
          `--root-ca-file=${pki.ca.cert}`,
          "--use-service-account-credentials=false",
          // kwok's nodes have no kubelet: the node lifecycle controller would mark them (and their pods) NotReady between heartbeats.
          "--controllers=*,-node-lifecycle-controller",
          `--service-cluster-ip-range=${SERVICE_RANGE}`,
        ],
        { cwd: dir },
      ),
      startDaemon(join(bins, "kube-scheduler"), [`--kubeconfig=${admin}`, "--leader-elect=false", "--secure-port=0"], { cwd: dir }),
    );
    const stages = join(dir, "kwok-stages.yaml");
    const stageDir = join(bins, "stages");
    const texts = await Promise.all((await readdir(stageDir)).sort().map((name) => readFile(join(stageDir, name), "utf8")));
    await writeFile(stages, [...texts, INGRESS_STAGE].map((text) => text.trim()).join("\n---\n"));
    parts.push(
      startDaemon(
        join(bins, "kwok"),
        [
          `--kubeconfig=${admin}`,
          `--config=${stages}`,
          "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",
          "--cidr=10.244.0.0/16",
          "--node-ip=127.0.0.2",
          "--node-lease-duration-seconds=40",
        ],
        {
          cwd: dir,
          env: { HOME: dir },
        },
      ),
    );
    const cluster = clusterOf(server, dir, configs, stop, Date.now() - begun, parts);
    const nodes = options.nodes ?? 1;
    for (let i = 0; i < nodes; i++) must(await cluster.kubectl(["apply", "-f", "-"], { input: fakeNode(`kwok-node-${i}`) }), "create a fake node");
    // Ready nodes (kwok) and the default ServiceAccount (the controller-manager): pods can be created and scheduled.
    await until(
      async () =>
        (await cluster.kubectl(["get", "nodes", "-o", "jsonpath={.items[*].status.conditions[?(@.type=='Ready')].status}"])).stdout
          .split(" ")
          .filter((s) => s === "True").length === nodes,
      "fake nodes Ready",
      parts,
      120_000,
    );
    await until(
      async () => (await cluster.kubectl(["get", "serviceaccount", "default", "-n", "default"])).code === 0,
      "the default ServiceAccount",
      parts,
      120_000,
    );
    cluster.startedInMs = Date.now() - begun;
    return cluster;
  } catch (error) {
    const logs = parts.map((part) => `--- pid ${part.pid} ---\n${part.log().slice(-3000)}`).join("\n");
    await stop();
    throw new Error(`the test cluster did not start: ${(error as Error).message}\n${logs}`);
  }
}

function clusterOf(server: string, dir: string, configs: Record<Identity, string>, stop: () => Promise<void>, startedInMs: number, parts: Daemon[]): Cluster {
  const file = (as: Identity = "admin") => join(dir, `${as}.kubeconfig`);
  const cluster: Cluster = {
    server,
    dir,
    startedInMs,
    kubeconfig: (as = "admin") => configs[as],
    kubeconfigFile: file,
    async kubectl(args, options = {}) {
      return runGroup(await kubectlBinary(), ["--kubeconfig", file(options.as), ...args], {
        cwd: dir,
        timeoutMs: 300_000,
        ...(options.input === undefined ? {} : { input: options.input }),
      });
    },
    async grant(rules) {
      const role = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name: "chartroom-deployer" }, rules };
      const binding = {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: "chartroom-deployer" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "chartroom-deployer" },
        subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "deployer" }],
      };
      must(
        await cluster.kubectl(["apply", "-f", "-"], { input: JSON.stringify({ apiVersion: "v1", kind: "List", items: [role, binding] }) }),
        "grant the deployer",
      );
    },
    async audit() {
      const text = await readFile(join(dir, "audit.log"), "utf8").catch(() => "");
      return text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as AuditEvent);
    },
    async explain() {
      const state = await cluster.kubectl(["get", "nodes,pods,jobs,events", "-A", "-o", "wide"]);
      const logs = parts.map((part) => `--- pid ${part.pid}${part.alive() ? "" : " (exited)"} ---\n${part.log().slice(-1500)}`);
      return [state.stdout, state.stderr, ...logs].join("\n");
    },
    stop,
  };
  return cluster;
}

function must(outcome: ProcessOutcome, what: string): void {
  if (outcome.code !== 0) throw new Error(`${what}: kubectl exited ${outcome.code}: ${outcome.stderr}${outcome.stdout}`);
}

function existsShm(): boolean {
  return statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Poll `check` every 250 ms until it holds, a part exits, or `limitMs` passes (a hang, not slowness: the limit is generous). */
async function until(check: () => Promise<boolean>, what: string, parts: Daemon[], limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    const dead = parts.find((part) => !part.alive());
    if (dead !== undefined) throw new Error(`waiting for ${what}: a cluster part (pid ${dead.pid}) exited:\n${dead.log().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${what} did not come within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface KeyPair {
  cert: string;
  key: string;
}

interface Pki {
  ca: KeyPair;
  serving: KeyPair;
  admin: KeyPair;
  deployer: KeyPair;
  serviceAccount: { key: string; pub: string };
}

/** A fresh CA and the certificates the cluster needs (EC keys: quick to make). */
async function certificates(dir: string): Promise<Pki> {
  await mkdir(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const openssl = (args: string[]) => run("openssl", args, { cwd: dir });
  const key = (name: string) => openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path(name)]);
  await key("ca.key");
  await openssl(["req", "-x509", "-new", "-key", path("ca.key"), "-out", path("ca.crt"), "-days", "2", "-subj", "/CN=chartroom-test-cluster-ca"]);
  const sign = async (name: string, subject: string, ext: string) => {
    await key(`${name}.key`);
    await openssl(["req", "-new", "-key", path(`${name}.key`), "-out", path(`${name}.csr`), "-subj", subject]);
    await writeFile(path(`${name}.ext`), ext);
    await openssl([
      "x509",
      "-req",
      "-in",
      path(`${name}.csr`),
      "-CA",
      path("ca.crt"),
      "-CAkey",
      path("ca.key"),
      "-CAcreateserial",
      "-out",
      path(`${name}.crt`),
      "-days",
      "2",
      "-extfile",
      path(`${name}.ext`),
    ]);
    return { cert: path(`${name}.crt`), key: path(`${name}.key`) };
  };
  const names = [
    "DNS:localhost",
    "DNS:kubernetes",
    "DNS:kubernetes.default",
    "DNS:kubernetes.default.svc",
    "DNS:kubernetes.default.svc.cluster.local",
    "IP:127.0.0.1",
    "IP:10.0.0.1",
  ];
  const serving = await sign(
    "apiserver",
    "/CN=kube-apiserver",
    `subjectAltName=${names.join(",")}\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n`,
  );
  const client = "extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n";
  const admin = await sign("admin", "/O=system:masters/CN=admin", client);
  const deployer = await sign("deployer", "/O=deployers/CN=deployer", client);
  await key("sa.key");
  await openssl(["ec", "-in", path("sa.key"), "-pubout", "-out", path("sa.pub")]);
  return { ca: { cert: path("ca.crt"), key: path("ca.key") }, serving, admin, deployer, serviceAccount: { key: path("sa.key"), pub: path("sa.pub") } };
}

function base64File(path: string): string {
  return readFileSync(path).toString("base64");
}

function kubeconfigText(server: string, ca: KeyPair, user: KeyPair, name: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: test",
    "  cluster:",
    `    server: ${server}`,
    `    certificate-authority-data: ${base64File(ca.cert)}`,
    "users:",
    `- name: ${name}`,
    "  user:",
    `    client-certificate-data: ${base64File(user.cert)}`,
    `    client-key-data: ${base64File(user.key)}`,
    "contexts:",
    `- name: ${name}`,
    "  context:",
    "    cluster: test",
    `    user: ${name}`,
    `current-context: ${name}`,
    "",
  ].join("\n");
}

/** One GET as admin, for the readiness wait: the status code. */
async function apiGet(server: string, pki: Pki, path: string): Promise<number> {
  const [ca, cert, key] = await Promise.all([readFile(pki.ca.cert), readFile(pki.admin.cert), readFile(pki.admin.key)]);
  return new Promise((done, fail) => {
    const req = request(`${server}${path}`, { ca, cert, key, timeout: 5000 }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", fail);
    req.end();
  });
}

/**
 * An ingress controller's one visible act, done by kwok: an address in the
 * Ingress's status (the provider awaits it before an Ingress counts as ready).
 */
const INGRESS_STAGE = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: ingress-address
spec:
  resourceRef:
    apiGroup: networking.k8s.io/v1
    kind: Ingress
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.loadBalancer.ingress'
      operator: 'DoesNotExist'
  next:
    statusTemplate: |
      loadBalancer:
        ingress:
        - ip: 127.0.0.3
`;

/** A node kwok manages: Ready, schedulable, roomy. */
function fakeNode(name: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      annotations: { "kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0" },
      labels: { "kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux", "kubernetes.io/hostname": name, type: "kwok" },
    },
    status: {
      allocatable: { cpu: "32", memory: "256Gi", pods: "110" },
      capacity: { cpu: "32", memory: "256Gi", pods: "110" },
      nodeInfo: {
        architecture: "amd64",
        operatingSystem: "linux",
        kubeletVersion: "fake",
        kernelVersion: "",
        osImage: "",
        containerRuntimeVersion: "",
        kubeProxyVersion: "",
        machineID: "",
        systemUUID: "",
        bootID: "",
      },
      phase: "Running",
    },
  });
}
