// Progress of long work (rendering a platform, asking registries) for a
// person: on a terminal, one line redrawn in place (cli/start.ts); in a CI
// log, where a redrawn line is noise, an occasional line instead.

/** Off a terminal (a CI log): a line now and then, the first after a while, so a quick run prints nothing. */
export function logProgress(started: number, every = 30_000, write = (text: string) => process.stderr.write(text)): (line: string) => void {
  let last = started;
  return (line) => {
    const now = Date.now();
    if (now - last < every) return;
    last = now;
    write(`chartroom: ${line} (${Math.round((now - started) / 1000)} s)\n`);
  };
}
