export { customerPrivacyAction as action } from "../webhooks/customer-privacy.server";
