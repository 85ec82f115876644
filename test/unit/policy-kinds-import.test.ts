import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { modelModule } from "../../src/policy/rules/cluster.js";

describe("the kubernetes-models module the schema rule imports for a kind", () => {
  it("names one kind's module, the core group's under v1", () => {
    expect(modelModule("v1 ConfigMap")).toBe("kubernetes-models/v1/ConfigMap");
    expect(modelModule("apps/v1 Deployment")).toBe("kubernetes-models/apps/v1/Deployment");
    expect(modelModule("networking.k8s.io/v1 Ingress")).toBe("kubernetes-models/networking.k8s.io/v1/Ingress");
    // Under k8s.io, a group the package lacks is still asked for: its import fails, as before.
    expect(modelModule("gateway.networking.k8s.io/v1 Gateway")).toBe("kubernetes-models/gateway.networking.k8s.io/v1/Gateway");
  });

  it("names none for a custom resource's kind outside k8s.io, whose import would search node_modules and fail", () => {
    for (const entry of ["monitoring.coreos.com/v1 ServiceMonitor", "cert-manager.io/v1 Certificate", "stackgres.io/v1 SGCluster", "example.com/v1 Widget"])
      expect(modelModule(entry), entry).toBeUndefined();
  });

  it("takes every group the installed package ships for one of Kubernetes' own", () => {
    const root = join(import.meta.dirname, "../../node_modules/kubernetes-models");
    const modules = readdirSync(root, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".js") && entry.name !== "index.js" && !entry.parentPath.includes("_schemas"))
      .map((entry) => `${entry.parentPath.slice(root.length + 1)} ${entry.name.slice(0, -3)}`)
      .filter((entry) => /\/?v\d/.test(entry));
    expect(modules.length).toBeGreaterThan(500);
    expect(modules.filter((entry) => modelModule(entry) === undefined)).toStrictEqual([]);
  });
});
