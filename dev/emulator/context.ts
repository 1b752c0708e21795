/** What an API route handler gets, and the helpers every handler uses. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Account, KeyType } from "./accounts";
import type { EmulatorCore } from "./core";
import { HttpError } from "./http-utils";
import { sendJson } from "../http";
import { envelope } from "./limits";
import type { QuotaFeature } from "./tiers";

export interface ApiContext {
  core: EmulatorCore;
  req: IncomingMessage;
  res: ServerResponse;
  account: Account;
  keyType: KeyType;
  /** From X-Workspace-ID, or from Origin for a publishable key; undefined when neither. */
  workspaceId: string | undefined;
  params: Record<string, string>;
  body: unknown;
  now: number;
}

export type Handler = (context: ApiContext) => Promise<void> | void;

/** Sends the success envelope; `usage.quota` reports the quota of `feature`. */
export function reply(context: ApiContext, data: unknown, feature: QuotaFeature, status = 200) {
  sendJson(context.res, status, envelope(context.account, data, feature, context.now));
}

export function requireWorkspace(context: ApiContext): string {
  if (context.workspaceId === undefined) {
    throw new HttpError(
      400,
      "WORKSPACE_REQUIRED",
      "This operation writes or reads indexed content and needs the X-Workspace-ID header",
    );
  }
  return context.workspaceId;
}

export function validationError(message: string): HttpError {
  return new HttpError(400, "VALIDATION_ERROR", message);
}

export function quotaExceeded(feature: string, limit: number, resetDate: string): HttpError {
  return new HttpError(
    403,
    "QUOTA_EXCEEDED",
    `The monthly ${feature} quota (${limit}) is used up; it resets on ${resetDate}`,
  );
}
