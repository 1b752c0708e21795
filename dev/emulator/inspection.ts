/**
 * `/__emulator/…`: inspection and control over HTTP, without authentication. Only for a local
 * emulator; the real service has nothing like it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccountStatus } from "./accounts";
import type { EmulatorControl } from "./control";
import { parseFault } from "./faults";
import { HttpError, readJson } from "./http-utils";
import { isObject, sendJson } from "../http";
import { isTier, type Tier } from "./tiers";

export const INSPECTION_PREFIX = "/__emulator";

const ENDPOINTS = [
  "GET    /__emulator/state                everything below in one object",
  "GET    /__emulator/requests             requests seen (method, path, key type and hint, status, time)",
  "DELETE /__emulator/requests             forget them",
  "GET    /__emulator/accounts             tier, status, keys (hints), rate windows, quota usage",
  "POST   /__emulator/accounts/{name}      {status?: active|trial_expired|inactive, tier?}",
  "GET    /__emulator/workspaces           each workspace's products and posts",
  "GET    /__emulator/threads              chat threads and handoffs",
  "GET    /__emulator/feedback             feedback received",
  "GET    /__emulator/webhooks             registered webhooks (no secrets)",
  "GET    /__emulator/deliveries           webhook delivery log with attempts",
  "POST   /__emulator/deliveries/flush     run every scheduled retry now",
  "GET    /__emulator/emails               owner notifications (failed webhooks)",
  "GET    /__emulator/clock                {now, iso}",
  "POST   /__emulator/clock                {now: epoch ms | ISO | null} or {advanceMs}",
  "POST   /__emulator/keys/revoke          {key}",
  "POST   /__emulator/keys/restore         {key}",
  "GET    /__emulator/faults               pending faults",
  "POST   /__emulator/faults               {status?, count?, code?, message?, retryAfter?, retryAfterHeader?, delayMs?, disconnect?, match?: {method?, path?}}",
  "DELETE /__emulator/faults               clear faults",
  "POST   /__emulator/handoffs/resolve     {threadId}: fires handoff.resolved",
  "POST   /__emulator/streams/release      let chat streams held by __emulator_hold__ go on",
  "POST   /__emulator/reset                back to the start",
];

function keyOf(body: unknown): string {
  if (!isObject(body) || typeof body.key !== "string") {
    throw new HttpError(400, "VALIDATION_ERROR", "Send {key}");
  }
  return body.key;
}

export async function handleInspection(
  control: EmulatorControl,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const method = req.method ?? "GET";
  const route = `${method} ${path.slice(INSPECTION_PREFIX.length) || "/"}`;
  const body = method === "POST" ? await readJson(req) : undefined;
  const ok = (data: unknown) => sendJson(res, 200, data);
  switch (route) {
    case "GET /":
      return ok({ endpoints: ENDPOINTS });
    case "GET /state":
      return ok(control.snapshot());
    case "GET /requests":
      return ok(control.requests());
    case "DELETE /requests":
      control.clearRequests();
      return ok({ cleared: true });
    case "GET /accounts":
      return ok(control.accounts());
    case "GET /workspaces":
      return ok(control.workspaces());
    case "GET /threads":
      return ok(control.threads());
    case "GET /feedback":
      return ok(control.feedback());
    case "GET /webhooks":
      return ok(control.webhooks());
    case "GET /deliveries":
      return ok(control.deliveries());
    case "POST /deliveries/flush":
      control.flushWebhookRetries();
      return ok({ flushed: true });
    case "GET /emails":
      return ok(control.emails());
    case "GET /clock":
      return ok({ now: control.now(), iso: new Date(control.now()).toISOString() });
    case "POST /clock": {
      if (isObject(body) && typeof body.advanceMs === "number") control.advance(body.advanceMs);
      else if (isObject(body) && "now" in body) {
        const now = body.now;
        if (now !== null && typeof now !== "number" && typeof now !== "string") {
          throw new HttpError(400, "VALIDATION_ERROR", "now is epoch ms, an ISO date or null");
        }
        if (now !== null && Number.isNaN(new Date(now).getTime())) {
          throw new HttpError(400, "VALIDATION_ERROR", "now is not a date");
        }
        control.setNow(now);
      } else throw new HttpError(400, "VALIDATION_ERROR", "Send {now} or {advanceMs}");
      return ok({ now: control.now(), iso: new Date(control.now()).toISOString() });
    }
    case "POST /keys/revoke":
    case "POST /keys/restore": {
      const key = keyOf(body);
      const found = route.endsWith("revoke") ? control.revokeKey(key) : control.restoreKey(key);
      if (!found) throw new HttpError(404, "NOT_FOUND", "No such key");
      return ok({ revoked: route.endsWith("revoke") });
    }
    case "GET /faults":
      return ok(control.faults());
    case "POST /faults":
      return ok(control.injectFault(parseFault(body)));
    case "DELETE /faults":
      control.clearFaults();
      return ok({ cleared: true });
    case "POST /handoffs/resolve": {
      if (!isObject(body) || typeof body.threadId !== "string") {
        throw new HttpError(400, "VALIDATION_ERROR", "Send {threadId}");
      }
      return ok({ resolved: control.resolveHandoff(body.threadId) });
    }
    case "POST /streams/release":
      return ok({ released: control.releaseHeldStreams() });
    case "POST /reset":
      control.reset();
      return ok({ reset: true });
  }
  const accountMatch = /^POST \/accounts\/([^/]+)$/.exec(route);
  if (accountMatch) {
    const name = decodeURIComponent(accountMatch[1] ?? "");
    if (!control.account(name)) throw new HttpError(404, "NOT_FOUND", `No account ${name}`);
    const changes: { status?: AccountStatus; tier?: Tier } = {};
    if (isObject(body) && body.status !== undefined) {
      if (!["active", "trial_expired", "inactive"].includes(String(body.status))) {
        throw new HttpError(400, "VALIDATION_ERROR", "status is active, trial_expired or inactive");
      }
      changes.status = body.status as AccountStatus;
    }
    if (isObject(body) && body.tier !== undefined) {
      if (!isTier(body.tier)) throw new HttpError(400, "VALIDATION_ERROR", "Unknown tier");
      changes.tier = body.tier;
    }
    return ok(control.setAccount(name, changes));
  }
  throw new HttpError(
    404,
    "NOT_FOUND",
    `No inspection endpoint ${route}; GET /__emulator lists them`,
  );
}
