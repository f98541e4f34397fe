// A TCP proxy between the app and PostgreSQL (node:net) that a fault test can cut: while cut, every
// open connection is destroyed and new ones are closed as soon as they arrive, as when the network
// between the app and its database goes away; restore() lets connections through again.
import net from "node:net";

export interface FaultProxy {
  port: number;
  /** Connections currently relayed. */
  readonly open: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startProxy(target: { host: string; port: number }, port = 0): Promise<FaultProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let isCut = false;
  const server = net.createServer((client) => {
    if (isCut) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const proxy: FaultProxy = {
    port: (server.address() as net.AddressInfo).port,
    get open() {
      return pairs.size;
    },
    cut() {
      isCut = true;
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
    },
    restore() {
      isCut = false;
    },
    close() {
      proxy.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
