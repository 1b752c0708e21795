import { isDatabaseBusy } from "../models/database-busy.server";
import { logFor } from "./log";

const log = logFor("webhooks");

/**
 * A delivery (Shopify's webhooks, the service's events) that finds the database busy with another
 * process's lock for longer than a statement waits (app/models/sqlite-connections.server.ts) is
 * answered 503 with Retry-After, well within Shopify's 5 s: the sender delivers it again, and
 * nothing was stored, so nothing is lost or kept twice.
 */
export function answeredBusyForRetry<Args extends unknown[]>(
  action: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await action(...args);
    } catch (error) {
      if (!isDatabaseBusy(error)) throw error;
      log.info("a delivery found the database locked by another process: 503, to be sent again");
      return new Response("The database is busy: send it again", {
        status: 503,
        headers: { "Retry-After": "5" },
      });
    }
  };
}
