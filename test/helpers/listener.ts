import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface CountingListener {
  /** `http://<host>:<port>` */
  origin: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Every byte received, as text (to show what a connection would have carried). */
  received(): string;
  close(): Promise<void>;
}

/**
 * A TCP listener on a loopback address that answers nothing and counts who
 * connects: the proof that a command reached no host it was not told to.
 */
export async function countingListener(host = "127.0.0.3"): Promise<CountingListener> {
  let count = 0;
  let text = "";
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("close", () => sockets.delete(socket));
    // Never answered; closed soon so the client fails fast.
    setTimeout(() => socket.destroy(), 200).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    connections: () => count,
    received: () => text,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
