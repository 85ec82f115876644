import { describe, expect, it } from "vitest";
import { postRendererFor } from "../../src/project/post-renderer.js";

// A post-renderer's command is a path from the platform's folder, as every
// path in the config is; helm finds a relative one from the folder it runs in.
describe("a post-renderer as helm is given it", () => {
  const at = (command: string, from?: string) => postRendererFor({ command, args: ["build"] }, "/repo/platform", from).command;

  it("makes a relative command absolute for the CLI's helm", () => {
    expect(at("./kustomize.sh")).toBe("/repo/platform/kustomize.sh");
    expect(at("hooks/kustomize.sh")).toBe("/repo/platform/hooks/kustomize.sh");
    expect(at("../shared/kustomize.sh")).toBe("/repo/shared/kustomize.sh");
  });

  it("makes it relative to a Pulumi program's folder, wherever that is", () => {
    expect(at("./kustomize.sh", "/repo/platform")).toBe("./kustomize.sh");
    // As written where it is found as written: a deployed chart's inputs do not change.
    expect(at("hooks/kustomize.sh", "/repo/platform")).toBe("hooks/kustomize.sh");
    expect(at("./hooks/../kustomize.sh", "/repo/platform")).toBe("./hooks/../kustomize.sh");
    expect(at("./kustomize.sh", "/repo/platform/pulumi")).toBe("../kustomize.sh");
    expect(at("hooks/kustomize.sh", "/repo")).toBe("./platform/hooks/kustomize.sh");
  });

  it("leaves an absolute path and a bare name (found on PATH) as written, and the arguments alone", () => {
    expect(at("/usr/local/bin/kustomize", "/repo/platform/pulumi")).toBe("/usr/local/bin/kustomize");
    expect(at("kustomize")).toBe("kustomize");
    expect(at("kustomize", "/elsewhere")).toBe("kustomize");
    expect(postRendererFor({ command: "./k.sh", args: ["build", "./overlay"] }, "/p").args).toStrictEqual(["build", "./overlay"]);
  });
});
