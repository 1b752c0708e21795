/**
 * The naive app the webhook benchmarks compare with: it checks the signature, then sends the
 * product from the payload to the service with one POST /products inside the request, and answers
 * 200 when the service took it. No database, no outbox.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface NaiveWebhookApp {
  url: string;
  close(): Promise<void>;
}

export async function startNaiveWebhookApp(options: {
  apiSecret: string;
  emulatorUrl: string;
  secretKey: string;
  workspace: string;
}): Promise<NaiveWebhookApp> {
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => resolve(body));
    });
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const expected = createHmac("sha256", options.apiSecret).update(body, "utf8").digest();
      const given = Buffer.from(String(req.headers["x-shopify-hmac-sha256"] ?? ""), "base64");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401).end();
        return;
      }
      const product = JSON.parse(body) as {
        id: number;
        title: string;
        variants: { price: string }[];
      };
      const answer = await fetch(`${options.emulatorUrl}/products`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${options.secretKey}`,
          "Content-Type": "application/json",
          "X-Workspace-ID": options.workspace,
        },
        body: JSON.stringify({
          id: String(product.id),
          name: product.title,
          price: Number(product.variants[0]?.price ?? 0),
        }),
      }).catch(() => null);
      res.writeHead(answer?.ok ? 200 : 500).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
