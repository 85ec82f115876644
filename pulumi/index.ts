// The example platform's Pulumi program: every chart of chartroom.config.ts
// for the current stack, pinned by charts.lock.json, with an explicit provider.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { deployCharts } from "chartroom/pulumi";
import config from "../chartroom.config.js";

const stack = pulumi.getStack();
const settings = new pulumi.Config();
const renderTo = settings.get("renderYamlToDirectory");

// Never the machine's ambient kubeconfig: the cluster comes from stack config.
// With renderYamlToDirectory the provider writes what it would apply instead
// (it refuses a kubeconfig then, and still asks the machine's own kubeconfig
// for the cluster's version when one is reachable).
const provider = new k8s.Provider(
  "cluster",
  renderTo === undefined ? { kubeconfig: settings.requireSecret("kubeconfig") } : { renderYamlToDirectory: renderTo },
);

export const charts = deployCharts(config, {
  stack,
  provider,
  dir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  values: {
    // Typed by chartroom.types.ts: a wrong key or type fails tsc.
    webapp: {
      podAnnotations: { "example.test/stack": stack },
      auth: { password: settings.requireSecret("webappPassword") },
    },
  },
}).then((deployments) =>
  Object.fromEntries(
    Object.entries(deployments).map(([key, deployment]) => [key, { engine: deployment.engine, version: deployment.version, reasons: deployment.reasons }]),
  ),
);
