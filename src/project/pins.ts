import { pathToFileURL } from "node:url";
import * as semver from "../util/semver.js";
import { verifyProvenance, type Signer } from "../chart/provenance.js";
import type { ChartSpec } from "../config/types.js";
import { chooseEngine, mergeStacks } from "../engine/choice.js";
import { ChartroomError } from "../errors/index.js";
import type { LockedChart } from "../lockfile/schema.js";
import type { ChartVersion, FetchedArchive } from "../model/charts.js";
import { fetchVerified } from "../sources/fetch.js";
import { readFileFor } from "../util/fs.js";
import { meetsConstraint } from "../util/helm-range.js";
import { resolveVersion } from "../versions/resolve.js";
import { inspectionOf } from "./archives.js";
import type { Project } from "./project.js";
import { renderFacts } from "./render-facts.js";
import { sourceOf } from "./select.js";

/** How a chart is pinned: what `lock` may accept that it otherwise refuses. */
export interface PinOptions {
  acceptRepublished?: boolean;
  acceptNewSigner?: boolean;
  allowDowngrade?: boolean;
}

/**
 * One chart pinned: resolved (or the version given), fetched and verified,
 * its archive inspected, its signer checked when the config asks, rendered
 * for the hook facts, and its engine chosen. Writes nothing but the caches.
 */
export async function lockChart(project: Project, spec: ChartSpec, given: ChartVersion | undefined, options: PinOptions): Promise<LockedChart> {
  const source = sourceOf(project, spec);
  const old = project.lock?.charts[spec.key];
  const listed = given === undefined ? await source.listVersions(spec.chart) : [];
  const resolved =
    given ?? resolveVersion({ key: spec.key, chart: spec.chart, range: spec.range, prerelease: spec.prerelease, repository: spec.repository.url }, listed);
  if (given === undefined && old !== undefined) checkNoSilentDowngrade(spec, old, resolved, listed, options);
  // An OCI digest pin is fetched by digest, so a moved tag cannot change it.
  const version = spec.digest !== undefined && spec.repository.kind === "oci" ? { ...resolved, manifestDigest: spec.digest } : resolved;
  const archive = await fetchVerified(source, version, project.store);
  checkDigestPin(spec, archive.manifestDigest ?? archive.digest);
  if (
    old !== undefined &&
    old.version === version.version &&
    old.repository === spec.repository.url &&
    old.digest !== archive.digest &&
    options.acceptRepublished !== true
  ) {
    throw new ChartroomError(
      "DIGEST_MISMATCH",
      `${spec.chart} ${version.version} was republished: charts.lock.json pins ${old.digest}, the repository now serves ${archive.digest}`,
      {
        place: { file: project.lockPath, chart: spec.key },
        hint: `a published version should never change; find out why it did, then accept it with chartroom lock ${spec.key} --accept-republished`,
      },
    );
  }
  const inspection = await inspectionOf(project, archive, `${spec.chart}-${version.version}`);
  if (inspection.name !== spec.chart || inspection.version !== version.version) {
    throw new ChartroomError(
      "ARCHIVE_INVALID",
      `the archive listed as ${spec.chart} ${version.version} holds ${inspection.name} ${inspection.version} (its Chart.yaml)`,
      {
        place: { url: archive.url, chart: spec.key },
        hint: "the repository's index or tag does not match its archive; do not pin it, and tell the repository's owner",
      },
    );
  }
  const signer = spec.verify === undefined ? undefined : await checkSigner(project, spec, version, archive, old, options);
  const facts = await renderFacts(project, spec, archive, version.version);
  const entry: LockedChart = {
    repository: spec.repository.url,
    chart: spec.chart,
    range: spec.range,
    version: version.version,
    digest: archive.digest,
    url: relativeTo(archive.url, source.url, spec.repository.path),
    chartApiVersion: inspection.apiVersion,
    schema: inspection.schema,
    crds: inspection.crds,
    dependencies: inspection.dependencies.map((dependency) => ({ ...dependency })),
    hooks: inspection.hooks,
    renderedHooks: facts.hooks,
    unstable: facts.unstable,
    customResourceGroups: facts.customResourceGroups,
    engine: { ...chooseEngine(spec, mergeStacks(facts.hooks), "rendered") },
  };
  // Only a chart rendered twice has a record: one rendered once needs none.
  if (Object.keys(facts.renderInputs).length > 0)
    entry.renderInputs = Object.fromEntries(Object.entries(facts.renderInputs).map(([stack, record]) => [stack, { ...record }]));
  if (spec.prerelease) entry.prerelease = true;
  if (signer !== undefined) entry.signer = { ...signer };
  if (archive.manifestDigest !== undefined) entry.manifestDigest = archive.manifestDigest;
  if (spec.digest !== undefined) entry.pinnedDigest = spec.digest;
  const appVersion = version.appVersion ?? inspection.appVersion;
  if (appVersion !== undefined) entry.appVersion = appVersion;
  return entry;
}

/**
 * A pin never moves down on its own: when the pinned version is gone from
 * the listing (withdrawn, or an entry too broken to read) and the range
 * still takes it, say so instead of pinning something older.
 */
function checkNoSilentDowngrade(spec: ChartSpec, old: LockedChart, resolved: ChartVersion, listed: readonly ChartVersion[], options: PinOptions): void {
  if (options.allowDowngrade === true || !semver.valid(old.version) || !semver.valid(resolved.version) || !semver.lt(resolved.version, old.version)) return;
  if (!meetsConstraint(old.version, spec.range, spec.prerelease)) return; // the range moved down on purpose
  const stillListed = listed.some((version) => version.version === old.version);
  throw new ChartroomError(
    "VERSION_NOT_FOUND",
    `${spec.chart} ${old.version} is pinned, but ${spec.repository.url} ${stillListed ? "lists it in a form chartroom cannot use" : "no longer lists it (or lists it broken)"}; chartroom will not move the pin down to ${resolved.version} on its own`,
    {
      place: { file: `${spec.repository.url}`, chart: spec.key },
      hint: `check the repository's index; to pin ${resolved.version} on purpose: chartroom lock ${spec.key} --allow-downgrade`,
    },
  );
}

function checkDigestPin(spec: ChartSpec, actual: string): void {
  if (spec.digest === undefined || spec.digest === actual) return;
  throw new ChartroomError("DIGEST_MISMATCH", `${spec.chart} ${spec.range} has digest ${actual}, but the config pins ${spec.digest}`, {
    place: { chart: spec.key, key: `charts.${spec.key}.version` },
    hint: "the published chart differs from the one you pinned; check the digest in the config",
  });
}

/**
 * The archive's provenance verified against the declaration's keyring, before
 * it is pinned: missing, unverifiable, vouching for other bytes, or signed by
 * another key than the lock recorded is PROVENANCE_INVALID.
 */
async function checkSigner(
  project: Project,
  spec: ChartSpec,
  version: ChartVersion,
  archive: FetchedArchive,
  old: LockedChart | undefined,
  options: PinOptions,
): Promise<Signer> {
  const keyring = spec.verify?.keyring as string;
  const chart = { key: spec.key, name: spec.chart, version: version.version, digest: archive.digest, url: archive.url };
  const provenance = await sourceOf(project, spec).provenance(version);
  if (provenance === null) {
    throw new ChartroomError("PROVENANCE_INVALID", `${spec.chart} ${version.version} has no provenance file, and the config asks for one (verify)`, {
      place: { chart: spec.key, url: archive.url },
      hint: "the publisher did not sign this version (`helm package --sign`); pin a signed one, or set verify: false on the chart to take it unchecked",
    });
  }
  const bytes = await readFileFor(keyring, "the keyring", {
    place: { key: `charts.${spec.key}.verify.keyring` },
    hint: "export the signer's public key with `gpg --export <key> > keyring.gpg`",
  });
  const signer = await verifyProvenance({ provenance, keyring: bytes, keyringPath: keyring, chart });
  if (old?.signer !== undefined && old.signer.fingerprint !== signer.fingerprint && options.acceptNewSigner !== true) {
    throw new ChartroomError(
      "PROVENANCE_INVALID",
      `${spec.chart} ${version.version} is signed by ${describeSigner(signer)}, but charts.lock.json records ${describeSigner(old.signer)} for ${spec.key}`,
      {
        place: { chart: spec.key, file: project.lockPath },
        hint: `find out why the signer changed; to accept it: chartroom lock ${spec.key} --accept-new-signer`,
      },
    );
  }
  return signer;
}

function describeSigner(signer: Signer): string {
  return `${signer.user ?? "a key"} (${signer.fingerprint})`;
}

/** Archives inside the repository are recorded by relative path, so the lock is portable. */
function relativeTo(archiveUrl: string, repositoryUrl: string, folder?: string): string {
  const base = folder !== undefined ? pathToFileURL(`${folder}/`).toString() : repositoryUrl.endsWith("/") ? repositoryUrl : `${repositoryUrl}/`;
  return archiveUrl.startsWith(base) ? archiveUrl.slice(base.length) : archiveUrl;
}
