// Chart.yaml through the fast block reader (chart/inspect.ts): taken only
// where it reads as the yaml package reads it (YAML 1.2's core schema), so
// every chart's metadata is what it was. The corpus: every Chart.yaml of the
// repository's charts, Chart.yaml files shaped like public charts', and the
// scalars on which YAML 1.1 (the fast reader's) and 1.2 part ways.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { inspectArchive } from "../../src/chart/inspect.js";
import { coreStringsOnly, parseBlockYaml } from "../../src/util/fast-yaml.js";
import { isRecord } from "../../src/util/json.js";
import { ROOT } from "../helpers/platform.js";
import { tarball } from "../helpers/tarball.js";

const REPOSITORY_CHARTS = [
  "fixtures/charts/ledger/0.1.0",
  "fixtures/charts/ledger/0.2.0",
  "fixtures/charts/storefront/0.1.0",
  "fixtures/charts/webapp/1.0.0",
  "fixtures/charts/webapp/1.0.1",
  "fixtures/charts/webapp/1.1.0",
  "fixtures/charts/webapp/2.0.0",
  "fixtures/charts/widgets-operator/1.0.0",
  "fixtures/charts/widgets-operator/1.1.0",
  "scripts/seed-charts/common/1.0.0",
  "scripts/seed-charts/service/1.0.0",
  "scripts/seed-charts/service/1.1.0",
];

const PUBLIC_SHAPED = [
  `annotations:
  category: Database
  licenses: Apache-2.0
  images: |
    - name: postgresql
      image: docker.io/bitnami/postgresql:16.4.0-debian-12-r0
apiVersion: v2
appVersion: 16.4.0
dependencies:
- name: common
  repository: oci://registry-1.docker.io/bitnamicharts
  tags:
  - bitnami-common
  version: 2.x.x
description: PostgreSQL (Postgres) is an open source object-relational database known for reliability and data integrity.
home: https://bitnami.com
icon: https://bitnami.com/assets/stacks/postgresql/img/postgresql-stack-220x234.png
keywords:
- postgresql
- postgres
- database
maintainers:
- name: Broadcom, Inc. All Rights Reserved.
  url: https://github.com/bitnami/charts
name: postgresql
sources:
- https://github.com/bitnami/charts/tree/main/bitnami/postgresql
version: 15.5.20
`,
  `apiVersion: v2
name: ingress-nginx
# When the version is modified, make sure the artifacthub.io/changes list is updated
version: 4.11.2
appVersion: "1.11.2"
home: https://github.com/kubernetes/ingress-nginx
description: Ingress controller for Kubernetes using NGINX as a reverse proxy and load balancer
icon: https://upload.wikimedia.org/wikipedia/commons/thumb/c/c5/Nginx_logo.svg/500px-Nginx_logo.svg.png
keywords:
  - ingress
  - nginx
sources:
  - https://github.com/kubernetes/ingress-nginx
maintainers:
  - name: cpanato
  - name: Gacko
kubeVersion: ">=1.21.0-0"
annotations:
  artifacthub.io/changes: |
    - Update Ingress-Nginx version controller-v1.11.2
  artifacthub.io/prerelease: "false"
`,
  `apiVersion: v2
name: kube-prometheus-stack
description: kube-prometheus-stack collects Kubernetes manifests, Grafana dashboards, and Prometheus rules.
type: application
version: 62.3.1
appVersion: v0.76.0
kubeVersion: ">=1.19.0-0"
dependencies:
  - name: crds
    version: "0.0.0"
    condition: crds.enabled
  - name: kube-state-metrics
    version: "5.25.*"
    repository: https://prometheus-community.github.io/helm-charts
    condition: kubeStateMetrics.enabled
  - name: grafana
    version: "8.4.*"
    repository: https://grafana.github.io/helm-charts
    condition: grafana.enabled
annotations:
  artifacthub.io/license: Apache-2.0
  artifacthub.io/links: |
    - name: Chart Source
      url: https://github.com/prometheus-community/helm-charts
`,
  `apiVersion: v2
name: cert-manager
description: A Helm chart for cert-manager
home: https://cert-manager.io
icon: https://raw.githubusercontent.com/cert-manager/community/4d35a69437d21b76322157e6284be4cd64e6d2b7/logo/logo-small.png
keywords: [cert-manager, kube-lego, letsencrypt, tls]
sources: ["https://github.com/cert-manager/cert-manager"]
maintainers:
  - name: cert-manager-maintainers
    email: cert-manager-maintainers@googlegroups.com
    url: https://cert-manager.io
version: v1.15.3
appVersion: v1.15.3
`,
];

// Where YAML 1.1 and 1.2 part ways, or a string the check cannot tell from a plain scalar: the yaml package reads these.
const DIVERGENT = [
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: yes\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: 0o17\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: 0755\n",
  "apiVersion: v2\nname: a\nversion: 1.0\n",
  'apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: "1.10"\n',
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: 1_000\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\ndeprecated: false\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nicon:\n",
  "apiVersion: v2\nname: ~\nversion: 1.0.0\n",
  "apiVersion: v2\nname: .NaN\nversion: 1.0.0\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: -.inf\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: 1e3\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: 0x1F\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nappVersion: +12\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nannotations:\n  0o17: fifteen\n",
  "apiVersion: v2\nname: a\nversion: 1.0.0\nannotations:\n  true: yes\n",
];

/** The fast reading when Chart.yaml's reader takes it. */
function fastly(text: string): unknown {
  const fast = parseBlockYaml(text);
  return isRecord(fast) && coreStringsOnly(fast) ? fast : undefined;
}

describe("Chart.yaml by the fast reader", () => {
  it("reads the repository's charts and public charts' shapes as the yaml package does", async () => {
    const texts = new Map<string, string>(PUBLIC_SHAPED.map((text, i) => [`public ${i}`, text]));
    for (const dir of REPOSITORY_CHARTS) texts.set(dir, await readFile(join(ROOT, dir, "Chart.yaml"), "utf8"));
    const refused: string[] = [];
    for (const [name, text] of texts) {
      const fast = fastly(text);
      if (fast === undefined) refused.push(name);
      // JSON keeps the keys' order, which toStrictEqual does not compare.
      else expect(JSON.stringify(fast), name).toBe(JSON.stringify(parseYaml(text)));
    }
    // `appVersion: "2026.11"`, `prerelease: "false"`: quoted, strings to both readers, but plain they would not
    // be, and the fast reader does not say which it read.
    expect(refused).toStrictEqual(["public 1", "fixtures/charts/storefront/0.1.0"]);
  });

  it("leaves to the yaml package every scalar YAML 1.1 and 1.2 read differently, and any string a plain one would not give", () => {
    for (const text of DIVERGENT) expect(fastly(text), text).toBeUndefined();
  });

  it("gives an archive's metadata as the yaml package reads it where the two part ways", async () => {
    const archive = (chartYaml: string) => tarball([{ name: "c/Chart.yaml", content: chartYaml }]);
    const octal = await inspectArchive(await archive("apiVersion: v2\nname: c\nversion: 1.0.0\nappVersion: 0o17\n"), "c");
    expect(octal.appVersion).toBe("15");
    const yes = await inspectArchive(await archive("apiVersion: v2\nname: c\nversion: 1.0.0\nappVersion: yes\n"), "c");
    expect(yes.appVersion).toBe("yes");
    const plain = await inspectArchive(await archive("apiVersion: v2\nname: c\nversion: 1.0.0\nappVersion: v1.2.3\n"), "c");
    expect(plain).toMatchObject({ name: "c", version: "1.0.0", appVersion: "v1.2.3" });
  });

  it("reads a Chart.yaml that starts with a byte order mark as the yaml package does (its apiVersion is not lost to the mark)", async () => {
    const marked = await inspectArchive(await tarball([{ name: "c/Chart.yaml", content: "\uFEFFapiVersion: v2\nname: c\nversion: 1.0.0\n" }]), "c");
    expect(marked).toMatchObject({ apiVersion: "v2", name: "c", version: "1.0.0" });
  });
});
