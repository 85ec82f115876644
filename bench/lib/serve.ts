import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback server for in-memory files, with ETag and an optional delay per response. */
export async function serveFiles(files: Map<string, Buffer>, delayMs = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const etags = new Map([...files].map(([path, body]) => [path, `"${createHash("sha1").update(body).digest("hex")}"`]));
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").replace(/^\/+/, "").split("?")[0] ?? "";
    setTimeout(() => {
      const body = files.get(path);
      if (body === undefined) return void res.writeHead(404).end();
      if (req.headers["if-none-match"] === etags.get(path)) return void res.writeHead(304).end();
      res.writeHead(200, { etag: etags.get(path) ?? "" }).end(body);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
