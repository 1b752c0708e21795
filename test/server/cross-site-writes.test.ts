/**
 * Writes from another site, over real HTTP against the app's server: a POST whose `Origin` names
 * another site than the request's host is answered 403 with one `info` line, on a page's action
 * (where Remix would answer 500 and log an error) and on a resource route's action (where Remix
 * checks nothing); the same requests from the app's own origin, reads, and deliveries without an
 * `Origin` (Shopify's webhooks, the service's events) are not refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAppServer } from "../../app/server/app-server";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import { captureLogs, type CapturedLogs } from "../../testkit/capture-logs";
import { requireCurrentBuild } from "../../testkit/live-stack";
import { rawRequest } from "../../testkit/raw-request";
import { startAppServer } from "../../app/server/app-server";

let app: RunningAppServer;
let logs: CapturedLogs;

beforeAll(async () => {
  requireCurrentBuild();
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  logs = captureLogs();
  app = await startAppServer();
}, 60_000);

afterAll(async () => {
  await app?.close();
  logs?.restore();
});

const send = (method: string, path: string, headers: Record<string, string>) =>
  rawRequest(new URL(path, app.url).href, {
    method,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: method === "GET" ? undefined : "intent=save",
  });

describe("writes from another site", () => {
  it("are answered 403 with one info line, on a page's action and on a resource route's", async () => {
    const since = logs.lines().length;
    for (const path of ["/app/settings", "/app/storefronts-choice", "/app/events-test", "/app"]) {
      for (const origin of ["https://evil.example", "null", "not a url"]) {
        const answer = await send("POST", path, { Origin: origin });
        expect(answer.status, `${path} from ${origin}`).toBe(403);
        expect(answer.body).toBe("Forbidden: this request came from another site.");
      }
    }
    const lines = logs.lines().slice(since);
    expect(lines.filter((line) => line.level !== "info")).toEqual([]);
    expect(
      lines.filter((line) => line.msg === "a write from another site was refused"),
    ).toHaveLength(12);
  });

  it("a proxy's X-Forwarded-Host is the host compared, as Remix compares it", async () => {
    const answer = await send("POST", "/app/settings", {
      Origin: "https://app.example.com",
      "X-Forwarded-Host": "other.example.com",
    });
    expect(answer.status).toBe(403);
  });

  it("are not refused from the app's own origin, nor reads, nor deliveries without an Origin", async () => {
    const own = new URL(app.url).origin;
    const notRefused = [
      await send("POST", "/app/settings", { Origin: own }),
      await send("POST", "/app/settings", {
        Origin: "https://app.example.com",
        "X-Forwarded-Host": "app.example.com",
      }),
      await send("GET", "/app/settings", { Origin: "https://evil.example" }),
      await send("POST", "/service-events/unknown", {}),
    ];
    for (const answer of notRefused) expect(answer.status).not.toBe(403);
  });
});
