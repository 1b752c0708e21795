import { createServer } from "node:net";

/**
 * A loopback port nothing listens on now, found by binding port 0 and giving it back: for a
 * server whose URL must be known before it starts, or an address where nothing answers.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
