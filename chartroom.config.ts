import { defineConfig } from "chartroom";

// The example platform: four charts from the local repository in charts/,
// with ranges that leave upgrades available so `outdated` has work to show.
export default defineConfig({
  repositories: {
    local: "file://./charts",
  },
  charts: {
    webapp: { repository: "local", version: "~1.0.0", namespace: "web" },
    ledger: { repository: "local", version: "^0.1.0", namespace: "ledger" },
    "widgets-operator": { repository: "local", version: "1.0.x", namespace: "widgets" },
    storefront: { repository: "local", version: "^0.1.0", namespace: "shop", releaseName: "shop", dependsOn: ["widgets-operator"] },
  },
  stacks: {
    dev: { kubeVersion: "1.31.0" },
    prod: { kubeVersion: "1.30.4", apiVersions: ["monitoring.coreos.com/v1"] },
  },
});
