/**
 * The environment the benches run in: a user's machine, not this one's
 * settings for its own network. This machine sets NODE_EXTRA_CA_CERTS to its
 * whole system bundle (144 certificates), and Node parses every certificate
 * in it at each start, before any code runs: `node -e 0` costs 23 ms of CPU
 * without it and 64 ms with it. helm, dyff and kubeconform (Go) read CA files
 * only when they open a TLS connection, and no bench opens one: repositories
 * are files or plain HTTP on loopback. The benches run without it; `peers`
 * shows what it costs a Node process (extraCaCertsOfMachine).
 */
let machine: string | undefined;

/** Drop NODE_EXTRA_CA_CERTS from this process's environment, which every measured command inherits. */
export function asOnAUsersMachine(): void {
  machine ??= process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

/** The NODE_EXTRA_CA_CERTS this machine set, if any. */
export function extraCaCertsOfMachine(): string | undefined {
  return machine;
}
