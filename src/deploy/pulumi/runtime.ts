import * as pulumi from "@pulumi/pulumi";

/**
 * Whether the program runs under `pulumi.runtime.setMocks` (a unit test).
 * The mock monitor registers a helm.v4.Chart as one resource and never its
 * children, and does not take transforms: the transforms that work on
 * children are left out there, as they would have nothing to work on.
 */
export function underMocks(): boolean {
  const monitor = pulumi.runtime.getMonitor() as { constructor?: { name?: string }; mocks?: { newResource?: unknown } } | undefined;
  if (monitor === undefined) return false;
  // The class name, or (bundled and renamed) the mocks it holds.
  return monitor.constructor?.name === "MockMonitor" || typeof monitor.mocks?.newResource === "function";
}
