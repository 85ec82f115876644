import { readFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";

export interface ProxyOptions {
  /** Where each host name the proxy is asked for really is: a port on 127.0.0.1. */
  routes: Record<string, number>;
  /** Require these credentials in Proxy-Authorization. */
  basic?: { username: string; password: string };
  /** Speak TLS to clients (an https:// proxy). */
  tls?: { cert: string; key: string };
}

export interface TestProxy {
  url: string;
  /** Each CONNECT the proxy opened, as host:port. */
  tunnels: string[];
  /** The headers of every CONNECT, answered or refused. */
  connectHeaders: IncomingHttpHeaders[];
  /** Plain requests it forwarded (absolute-form GETs). */
  forwarded: { url: string; headers: IncomingHttpHeaders }[];
  /** Every byte clients sent inside tunnels. */
  tunnelled(): Buffer;
  close(): Promise<void>;
}

/**
 * A forward proxy on 127.0.0.1 that counts what passes: CONNECT tunnels and
 * absolute-form requests. Host names resolve through `routes` only, so a
 * client that reaches a test host by name went through the proxy.
 */
export async function startProxy(options: ProxyOptions): Promise<TestProxy> {
  const tunnels: string[] = [];
  const connectHeaders: IncomingHttpHeaders[] = [];
  const forwarded: TestProxy["forwarded"] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<Duplex>();
  const allowed = (req: IncomingMessage) =>
    options.basic === undefined ||
    req.headers["proxy-authorization"] === `Basic ${Buffer.from(`${options.basic.username}:${options.basic.password}`).toString("base64")}`;
  const route = (authority: string) => options.routes[authority.replace(/:\d+$/, "")];

  const server: Server = options.tls ? createTlsServer({ cert: readFileSync(options.tls.cert), key: readFileSync(options.tls.key) }) : createServer();
  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    connectHeaders.push(req.headers);
    if (!allowed(req))
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n');
    const port = route(req.url ?? "");
    if (port === undefined) return void client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
    tunnels.push(req.url ?? "");
    const upstream: Socket = connect(port, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      client.on("data", (chunk: Buffer) => chunks.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on("error", drop);
    client.on("error", drop);
  });
  server.on("request", (req: IncomingMessage, res) => {
    forwarded.push({ url: req.url ?? "", headers: req.headers });
    if (!allowed(req)) return void res.writeHead(407, { "proxy-authenticate": 'Basic realm="proxy"' }).end();
    const target = new URL(req.url ?? "/");
    const port = route(target.host);
    if (port === undefined) return void res.writeHead(502).end();
    const { "proxy-authorization": _own, ...headers } = req.headers;
    const upstream = httpRequest({ host: "127.0.0.1", port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    tunnels,
    connectHeaders,
    forwarded,
    tunnelled: () => Buffer.concat(chunks),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
