import { customerPrivacyAction } from "../service-events/customer-privacy-webhooks.server";
import { answeredBusyForRetry } from "../server/busy-answer";

export const action = answeredBusyForRetry(customerPrivacyAction);
