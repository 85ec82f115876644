import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 with a random port, closed when the test ends
 * (open sockets included, so a hanging handler cannot keep the run alive).
 */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  // Inside a test it closes when the test ends; in a hook, the caller closes it.
  try {
    onTestFinished(close);
  } catch {
    // not inside a test
  }
  return { url: `http://127.0.0.1:${port}`, requests, close };
}
