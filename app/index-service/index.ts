/**
 * The service's client for server code. Browser code (the widget) imports the pure modules
 * directly (./ndjson, ./chat-events, ./chat-reply, ./client) so node:crypto never reaches a bundle.
 */
export * from "./assumptions";
export * from "./bulk";
export * from "./chat-events";
export * from "./chat-reply";
export * from "./client";
export * from "./envelope";
export * from "./errors";
export * from "./ndjson";
export * from "./protocol";
export * from "./response-errors";
export * from "./tiers";
export * from "./types";
export * from "./webhook-signature";
export * from "./workspace-id";
