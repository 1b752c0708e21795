/**
 * What one HTTP request costs this process's CPU, in the shapes a live pass makes them: a POST
 * of about 2 KB (a GraphQL query, a bulk write) answered with about 6 KB of JSON, by a server in
 * another process on loopback (as the fake Shopify and the service's emulator are). Issue 28's
 * goal of 5 ms of CPU per lone change has to hold its requests: this prints their floor.
 *
 *   npx tsx bench/request-cpu.bench.ts [--rounds 12] [--idle-ms 3500]
 *
 * Each way is measured back to back (warm) and after `--idle-ms` of nothing (as a lone change
 * comes: the worker waits out its 3 s coalescing window between passes). Ways:
 *   - fetch, connection renewed: Node's fetch (undici), the server closing a connection idle for
 *     a second, as a lone change's pass met in bench/worker-statements.bench.ts (the fakes'
 *     servers keep one 5 s, `Keep-Alive: timeout=5`, and undici lets it go sooner);
 *   - fetch, connection kept: the same, the server keeping it a minute (undici follows its hint);
 *   - node:http, connection kept: Node's own client with a keep-alive agent, the cheapest Node has.
 * CPU is `process.cpuUsage()` from the call to the parsed answer (all of the process's threads).
 * Prints figures; asserts nothing.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import { parseArgs } from "node:util";

const SERVER = `
const http = require("node:http");
const answer = JSON.stringify({ data: { nodes: Array.from({ length: 12 }, (_, i) => ({ id: "gid://shopify/Product/" + i, title: "A title ".repeat(50) })) } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => { res.setHeader("content-type", "application/json"); res.end(answer); });
});
server.keepAliveTimeout = Number(process.argv[1]);
server.listen(0, "127.0.0.1", () => process.send(server.address().port));
`;

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "12" },
    "idle-ms": { type: "string", default: "3500" },
  },
});
const rounds = Number(values.rounds);
const idleMs = Number(values["idle-ms"]);

const body = JSON.stringify({
  query: `query ProductsByIds($ids: [ID!]!) { nodes(ids: $ids) { ${"id title ".repeat(150)} } }`,
  variables: { ids: ["gid://shopify/Product/1"] },
});
const headers = { "content-type": "application/json" };

async function main() {
  const servers = [1_000, 65_000].map((keepAliveMs) =>
    spawn(process.execPath, ["-e", SERVER, String(keepAliveMs)], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  const [renewedUrl, keptUrl] = await Promise.all(
    servers.map(
      (server) =>
        new Promise<string>((resolve) =>
          server.once("message", (port) => resolve(`http://127.0.0.1:${String(port)}/`)),
        ),
    ),
  );
  const httpAgent = new http.Agent({ keepAlive: true, timeout: 60_000 });

  const viaFetch = (url: string) => async () => {
    const response = await fetch(url, { method: "POST", body, headers });
    return response.json();
  };
  const viaHttp = () =>
    new Promise<unknown>((resolve, reject) => {
      const request = http.request(
        keptUrl!,
        { method: "POST", agent: httpAgent, headers },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve(JSON.parse(text)));
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  const ways: [string, () => Promise<unknown>][] = [
    ["fetch, connection renewed", viaFetch(renewedUrl!)],
    ["fetch, connection kept", viaFetch(keptUrl!)],
    ["node:http, connection kept", viaHttp],
  ];

  const cpuOf = async (send: () => Promise<unknown>) => {
    const from = process.cpuUsage();
    await send();
    const used = process.cpuUsage(from);
    return (used.user + used.system) / 1000;
  };
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

  console.log(
    `CPU of one request (POST ${body.length} bytes, answer about 6 KB of JSON) on loopback, ` +
      `${rounds} rounds each, median (mean); Node ${process.version}`,
  );
  const afterIdle = new Map<string, number>();
  for (const [name, send] of ways) {
    for (let i = 0; i < 50; i++) await send();
    const warm: number[] = [];
    for (let i = 0; i < rounds * 4; i++) warm.push(await cpuOf(send));
    const idle: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await new Promise((resolve) => setTimeout(resolve, idleMs));
      idle.push(await cpuOf(send));
    }
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    afterIdle.set(name, median(idle));
    console.log(
      `  ${name.padEnd(27)} back to back ${median(warm).toFixed(2)} ms (${mean(warm).toFixed(2)}); ` +
        `after ${idleMs} ms idle ${median(idle).toFixed(2)} ms (${mean(idle).toFixed(2)})`,
    );
  }
  const renewedMs = afterIdle.get("fetch, connection renewed")!;
  const keptMs = afterIdle.get("fetch, connection kept")!;
  console.log(
    `A lone change's requests alone, after idle: 5 (a store with one storefront domain: 3 to ` +
      `Shopify, 2 to the service) ${(5 * renewedMs).toFixed(1)} ms, on kept connections ` +
      `${(5 * keptMs).toFixed(1)} ms; 3 at the least for that store (one Shopify read, two writes) ` +
      `${(3 * keptMs).toFixed(1)} ms; 2 for a store without domains ${(2 * keptMs).toFixed(1)} ms. ` +
      `Goal for the whole change: 5 ms.`,
  );
  for (const server of servers) server.kill();
  httpAgent.destroy();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
