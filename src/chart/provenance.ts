import { parse } from "yaml";
import { ChartroomError } from "../errors/index.js";
import { isRecord } from "../util/json.js";

// Helm's provenance files (`helm package --sign`): a PGP clear-signed
// message holding the chart's Chart.yaml, `...`, and the archive's sha256
// under `files:`. Checked here as `helm verify` checks it: the signature by
// a key of the keyring, and the digest of the very archive being pinned.

/** Who signed a chart: the key's fingerprint (as gpg prints it) and its first user ID. */
export interface Signer {
  fingerprint: string;
  user?: string;
}

export interface ProvenanceInput {
  /** The .prov file's bytes. */
  provenance: Buffer;
  /** The keyring's bytes: binary (`gpg --export`) or ASCII-armored. */
  keyring: Buffer;
  keyringPath: string;
  chart: { key: string; name: string; version: string; digest: string; url: string };
}

/** The signer of a verified provenance; PROVENANCE_INVALID for anything that does not verify. */
export async function verifyProvenance(input: ProvenanceInput): Promise<Signer> {
  const openpgp = await import("openpgp");
  const { chart } = input;
  const fail = (why: string, hint = "do not pin it: ask the chart's publisher, or check the keyring") =>
    new ChartroomError("PROVENANCE_INVALID", `${chart.name} ${chart.version}: ${why}`, { place: { chart: chart.key, url: chart.url }, hint });
  const text = input.keyring.toString("utf8");
  const keys = await (text.includes("-----BEGIN PGP PUBLIC KEY BLOCK-----")
    ? openpgp.readKeys({ armoredKeys: text })
    : openpgp.readKeys({ binaryKeys: new Uint8Array(input.keyring) })
  ).catch(() => {
    throw new ChartroomError("PROVENANCE_INVALID", `the keyring ${input.keyringPath} holds no key chartroom can read`, {
      place: { file: input.keyringPath, chart: chart.key },
      hint: "export the signer's public key with `gpg --export <key> > keyring.gpg` (binary or --armor)",
    });
  });
  const message = await openpgp.readCleartextMessage({ cleartextMessage: input.provenance.toString("utf8") }).catch(() => {
    throw fail("its provenance file is not a PGP signed message");
  });
  const { signatures } = await openpgp.verify({ message, verificationKeys: keys });
  const first = signatures[0];
  if (first === undefined) throw fail("its provenance file carries no signature");
  try {
    await first.verified;
  } catch (error) {
    const known = keys.some((key) => key.getKeyIDs().some((id) => id.equals(first.keyID)));
    throw fail(
      known
        ? `its provenance signature does not verify (${(error as Error).message})`
        : `its provenance is signed by key ${first.keyID.toHex().toUpperCase()}, which the keyring ${input.keyringPath} does not hold`,
    );
  }
  checkBody(message.getText(), chart, fail);
  const key = keys.find((item) => item.getKeyIDs().some((id) => id.equals(first.keyID)));
  const user = key?.getUserIDs()[0];
  return { fingerprint: (key?.getFingerprint() ?? first.keyID.toHex()).toUpperCase(), ...(user === undefined ? {} : { user }) };
}

/** The signed text names this chart and version, and this archive's digest. */
function checkBody(body: string, chart: ProvenanceInput["chart"], fail: (why: string) => ChartroomError): void {
  const [meta = "", sums = ""] = body.split(/^\.\.\.\s*$/m);
  let chartYaml: unknown;
  let files: unknown;
  try {
    chartYaml = parse(meta);
    files = (parse(sums) as { files?: unknown } | null)?.files;
  } catch {
    throw fail("its provenance file is not what `helm package --sign` writes");
  }
  if (!isRecord(chartYaml) || chartYaml.name !== chart.name || String(chartYaml.version) !== chart.version)
    throw fail(`its provenance was signed for ${isRecord(chartYaml) ? `${String(chartYaml.name)} ${String(chartYaml.version)}` : "another chart"}`);
  if (!isRecord(files)) throw fail("its provenance names no archive digest");
  const entries = Object.entries(files);
  const named = files[`${chart.name}-${chart.version}.tgz`] ?? (entries.length === 1 ? entries[0]?.[1] : undefined);
  if (named !== chart.digest) throw fail(`its provenance vouches for archive ${String(named ?? "(none)")}, but the archive served is ${chart.digest}`);
}
