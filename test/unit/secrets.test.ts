import { describe, expect, it } from "vitest";
import { ChartroomError, formatError } from "../../src/errors/index.js";
import { redact, redactDeep, rememberCredentialPair, rememberPublished, rememberSecret, stripUserInfo } from "../../src/errors/secrets.js";
import { isSecretPath, looksSecret, secretStrings } from "../../src/values/secret-keys.js";

describe("redaction", () => {
  it("strips user info from URLs", () => {
    expect(stripUserInfo("GET https://bob:pa55@charts.example.test/index.yaml failed")).toBe("GET https://***@charts.example.test/index.yaml failed");
  });

  it("masks every remembered credential wherever it appears", () => {
    rememberSecret("s3cr3t-token-value");
    expect(redact("Authorization: Bearer s3cr3t-token-value (s3cr3t-token-value)")).toBe("Authorization: Bearer *** (***)");
  });

  it("masks the longest secret first, secrets with pattern characters, in one pass", () => {
    rememberSecret("abc-1");
    rememberSecret("abc-1$(x)+more");
    expect(redact("a abc-1$(x)+more b abc-1 c")).toBe("a *** b *** c");
    for (let i = 0; i < 2000; i++) rememberSecret(`many-secrets-${i}`);
    expect(redact("many-secrets-1999 many-secrets-7 ".repeat(3))).toBe("*** *** ".repeat(3));
  });

  it("masks credentials in errors, their details and hints", () => {
    rememberSecret("pa55word-xyz");
    const error = new ChartroomError("HTTP_AUTH", "denied for pa55word-xyz", { details: ["pa55word-xyz"], hint: "not pa55word-xyz" });
    expect(formatError(error)).not.toContain("pa55word-xyz");
  });

  it("recognises errors from another copy of the package by their marker", () => {
    const foreign = Object.assign(new Error("x"), { [Symbol.for("chartroom.error")]: true });
    expect(ChartroomError.isInstance(foreign)).toBe(true);
    expect(ChartroomError.isInstance(new Error("x"))).toBe(false);
  });

  it.each([
    ["raw", (s: string) => s],
    ["JSON-escaped", (s: string) => JSON.stringify(s).slice(1, -1)],
    ["HTML-escaped", (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")],
    ["markdown-escaped", (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")],
    ["YAML single-quoted", (s: string) => s.replace(/'/g, "''")],
    ["URL-encoded", (s: string) => encodeURIComponent(s)],
    ["base64", (s: string) => Buffer.from(s).toString("base64")],
    ["base64 without padding", (s: string) => Buffer.from(s).toString("base64").replace(/=+$/, "")],
    ["in a table cell", (s: string) => s.replace(/\|/g, "\\|")],
  ])("masks a secret with quotes, backslashes and markup in its %s form", (_, form) => {
    const secret = `q"u\\o<t>e&'|-${Math.random().toString(36).slice(2)}`;
    rememberSecret(secret);
    expect(redact(`before ${form(secret)} after`)).toBe("before *** after");
  });

  it("masks each line of a multi-line secret, where a render or helm shows it line by line", () => {
    const key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nbW9yZS1rZXktbWF0ZXJpYWwtaGVyZQ==\n-----END PRIVATE KEY-----";
    rememberSecret(key);
    const shown =
      "data:\n  tls.key: |\n    -----BEGIN PRIVATE KEY-----\n    MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n    bW9yZS1rZXktbWF0ZXJpYWwtaGVyZQ==\n    -----END PRIVATE KEY-----\n";
    expect(redact(shown)).toBe("data:\n  tls.key: |\n    ***\n    ***\n    ***\n    ***\n");
  });

  it("masks short secrets as whole tokens only, so other words stay readable", () => {
    rememberSecret("adm");
    rememberSecret("admin");
    expect(redact("user admin (adm) is not an administrator; admins: admin")).toBe("user *** (***) is not an administrator; admins: ***");
  });

  // vault's `server.dev.devRootToken: root` made every report print the run-as-root rule as "run-as-***".
  it("masks a chart's published default only where it is long enough to be masked wherever it stands", () => {
    rememberPublished("root");
    rememberPublished("rootpass");
    expect(redact("may run as root (run-as-root); token rootpass, rootpassword")).toBe("may run as root (run-as-root); token ***, ***word");
  });

  it("masks the base64 of user:password, as Basic auth sends it", () => {
    rememberCredentialPair("robot-1", "Pair-Secret-77");
    expect(redact(`Authorization: Basic ${Buffer.from("robot-1:Pair-Secret-77").toString("base64")}`)).toBe("Authorization: Basic ***");
  });

  it("scrubs every string of a report before a renderer escapes it", () => {
    rememberSecret('deep"<secret>&');
    expect(redactDeep({ a: ['x deep"<secret>& y', 3], b: { c: 'deep"<secret>&' }, d: null })).toStrictEqual({ a: ["x *** y", 3], b: { c: "***" }, d: null });
  });

  it.each([
    ["password", true],
    ["adminPassword", true],
    ["dbPass", true],
    ["db_pass", true],
    ["DB_PASSWORD", true],
    ["apikey", true],
    ["apiKey", true],
    ["api-key", true],
    ["tls.key", true],
    ["privateKey", true],
    ["private_key", true],
    ["credentials", true],
    ["connectionString", true],
    ["dsn", true],
    ["clientSecret", true],
    ["token", true],
    ["htpasswd", true],
    ["secretKey", true],
    ["accessKey", true],
    ["secretName", false],
    ["existingSecret", false],
    ["passwordFile", false],
    ["secretKeyRef", false],
    ["key", false],
    ["keys", false],
    ["tokenPath", false],
    ["monkey", false],
    ["passive", false],
    ["turkey", false],
    ["replicaCount", false],
    ["image", false],
    ["authEnabled", false],
    ["keyName", false],
    // Keys public charts use that name or configure a secret, or are Kubernetes' own.
    ["topologyKey", false],
    ["podAntiAffinityTopologyKey", false],
    ["instanceLabelKey", false],
    ["annotationKey", false],
    ["userKey", false],
    ["passwordKey", false],
    ["userPasswordKey", false],
    ["createSecretJob", false],
    ["createAdminTokenJob", false],
    ["redisSecretInit", false],
    ["secretFieldSelector", false],
    ["credentialUpdaterImage", false],
    ["secretTemplate", false],
    ["secretsBackend", false],
    ["tsigSecretAlg", false],
    // …and near misses that hold the secret itself.
    ["awsSecretKey", true],
    ["tokenSecretKey", true],
    ["sessionSigningKey", true],
    ["hostKey", true],
    ["rootPassword", true],
    ["initialClusterToken", true],
    ["routingKey", true],
    ["userPassword", true],
    ["keyboardLayout", false],
    ["connectionTimeout", false],
    ["keyringString", false],
    ["_existingSecret", false],
  ])("decides whether a values key %s holds a secret: %s", (key, expected) => {
    expect(looksSecret(key)).toBe(expected);
  });

  it("takes every string below a secret-looking key, but for what only names or sets up the secret", () => {
    // kube-prometheus-stack 88.5.3's and prometheus-node-exporter 4.56.1's defaults, abridged.
    const defaults = {
      grafana: { admin: { existingSecret: "", userKey: "admin-user", passwordKey: "admin-password" }, adminPassword: "prom-operator" },
      prometheus: {
        ingressPerReplica: { tlsSecretPerReplica: { enabled: false, prefix: "prometheus" } },
        prometheusSpec: { podAntiAffinityTopologyKey: "kubernetes.io/hostname" },
      },
      prometheusOperator: {
        admissionWebhooks: { createSecretJob: { securityContext: { capabilities: { drop: ["ALL"] } } } },
        secretFieldSelector: "type!=kubernetes.io/dockercfg",
      },
      tlsSecret: { enabled: false, secretName: "node-exporter-tls", volumeName: "node-exporter-tls", certItem: "tls.crt", keyItem: "tls.key" },
      certificate: { privateKey: { algorithm: "RSA", encoding: "PKCS1", rotationPolicy: "Never" } },
    };
    expect(secretStrings(defaults)).toStrictEqual(["prom-operator"]);
    // What may hold the material itself stays secret below the key, and a key below a naming one is judged again.
    const material = {
      secret: { env: { FOO: "bar" }, url: "https://h/?token=t1", keys: ["k1"], header: "Bearer b1" },
      credentials: { name: "creds", data: { user: "u1" }, existingSecret: { password: "p1" } },
      auth: { password: { existingSecret: "a-secret-name", value: null, length: 32 } },
    };
    expect(secretStrings(material)).toStrictEqual(["bar", "https://h/?token=t1", "k1", "Bearer b1", "u1", "p1"]);
  });

  it("judges a path of keys as the strings below them are judged", () => {
    expect(isSecretPath(["auth", "password"])).toBe(true);
    expect(isSecretPath(["auth", "credentials", "user"])).toBe(true);
    expect(isSecretPath(["tlsSecret", "secretName"])).toBe(false);
    expect(isSecretPath(["tlsSecret", "secretName", "password"])).toBe(true);
    expect(isSecretPath(["affinity", "topologyKey"])).toBe(false);
    expect(isSecretPath(["replicaCount"])).toBe(false);
    expect(isSecretPath([])).toBe(false);
  });
});
