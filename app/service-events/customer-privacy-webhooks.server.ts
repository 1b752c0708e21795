import { recordComplianceRequest } from "../models/shops.server";
import { customerDataReport, redactCustomer } from "./customer-data.server";
import { authenticateShopifyWebhook, type WebhookActionArgs } from "../shopify/webhooks.server";

function customerOf(payload: unknown): { email: string | null; phone: string | null } {
  const customer =
    typeof payload === "object" && payload !== null
      ? (payload as Record<string, unknown>).customer
      : undefined;
  const field = (name: string) => {
    const value =
      typeof customer === "object" && customer !== null
        ? (customer as Record<string, unknown>)[name]
        : undefined;
    return typeof value === "string" && value.trim() !== "" ? value : null;
  };
  return { email: field("email"), phone: field("phone") };
}

/**
 * customers/data_request and customers/redact: what the Inbox holds about the customer (found by
 * email or phone) is reported or deleted, and the outcome recorded (counts and conversation ids,
 * never the customer's details themselves).
 */
export async function customerPrivacyAction({ request }: WebhookActionArgs): Promise<Response> {
  const { shop, topic, webhookId, payload } = await authenticateShopifyWebhook(request);
  const customer = customerOf(payload);
  let outcome: string;
  if (String(topic).toUpperCase() === "CUSTOMERS_REDACT") {
    const deleted = await redactCustomer(shop, customer);
    outcome = `Deleted ${deleted.inboxEntries} Inbox entries and ${deleted.events} service events of this customer's conversations, and ${deleted.copies} copies of them under other shops; only keyed hashes of the customer's email, phone and conversations are kept, to refuse their older events if sent again.`;
  } else {
    const report = await customerDataReport(shop, customer);
    const events = Object.entries(report.events)
      .map(([type, count]) => `${count} ${type}`)
      .join(", ");
    const { copies } = report;
    const elsewhere =
      report.heldEvents + copies.inboxEntries + copies.events + copies.heldEvents === 0
        ? ""
        : ` Also ${report.heldEvents} events not yet attributed to the shop, and under other shops ${copies.inboxEntries} Inbox entries, ${copies.events} events and ${copies.heldEvents} held events copied from these conversations.`;
    outcome =
      report.inboxEntries.length === 0 && elsewhere === ""
        ? "No data is held for this customer."
        : `Holds ${report.inboxEntries.length} Inbox entries for this customer (name, email, phone and message as they typed them in the chat; conversations ${report.inboxEntries
            .map((entry) => entry.threadId)
            .join(
              ", ",
            )}; shown in the Inbox) and service events of those conversations: ${events || "none"}.${elsewhere}`;
  }
  await recordComplianceRequest(shop, topic, webhookId, outcome);
  return new Response();
}
