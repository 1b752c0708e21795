export { customerPrivacyAction as action } from "../service-events/customer-privacy-webhooks.server";
