/**
 * The sample store's legal policies (Shopify's `ShopPolicyType`s), written as a merchant would:
 * headings, lists and a table, the HTML the policy editor saves. Every type is filled.
 */
export type SamplePolicyType =
  | "CONTACT_INFORMATION"
  | "LEGAL_NOTICE"
  | "PRIVACY_POLICY"
  | "REFUND_POLICY"
  | "SHIPPING_POLICY"
  | "SUBSCRIPTION_POLICY"
  | "TERMS_OF_SALE"
  | "TERMS_OF_SERVICE";

export const SAMPLE_POLICIES: Readonly<Record<SamplePolicyType, string>> = {
  REFUND_POLICY: `<h2>Returns and refunds</h2>
<p>We have a <strong>30-day return policy</strong>: you can return an item within 30 days of receiving it for a full refund.</p>
<p>To be eligible for a return, your item must be in the same condition that you received it, unworn or unused, with tags, and in its original packaging. You'll also need the receipt or proof of purchase.</p>
<p>To start a return, contact us at <a href="mailto:returns@demo-store.example.com">returns@demo-store.example.com</a>. Items sent back to us without first requesting a return will not be accepted.</p>
<h3>Sale items</h3>
<p>Sale items can be returned within 14 days for store credit. Gift cards and personalised items cannot be returned.</p>
<h3>Damages and issues</h3>
<p>Please inspect your order when you receive it and contact us immediately if the item is defective, damaged or you receive the wrong item.</p>
<h3>Exchanges</h3>
<p>The fastest way to get what you want is to return the item you have, and once the return is accepted, make a separate purchase for the new item.</p>
<h3>Refunds</h3>
<p>We will notify you once we've received and inspected your return. If approved, you'll be refunded on your original payment method within 10 business days.</p>`,
  SHIPPING_POLICY: `<h2>Shipping</h2>
<p>Orders are packed and shipped within 2 business days from our warehouse in Hamburg.</p>
<table>
<tr><th>Destination</th><th>Delivery time</th><th>Cost</th></tr>
<tr><td>Germany</td><td>1–3 business days</td><td>€4.90, free from €50</td></tr>
<tr><td>European Union</td><td>3–6 business days</td><td>€9.90, free from €100</td></tr>
<tr><td>United Kingdom and Switzerland</td><td>4–8 business days</td><td>€14.90 plus import duties</td></tr>
<tr><td>Rest of the world</td><td>7–14 business days</td><td>€24.90</td></tr>
</table>
<p>You will receive a tracking link by email as soon as your parcel leaves us.</p>`,
  PRIVACY_POLICY: `<h2>Privacy policy</h2>
<p>Demo Store ("we") operates this store and website. This policy describes how we collect, use and disclose your personal information when you visit or make a purchase.</p>
<h3>What we collect</h3>
<ul><li>Contact details: name, address, email, phone number.</li><li>Order information: what you bought, payment confirmation (we never see your full card number).</li><li>Device information: browser, IP address, pages visited, through cookies.</li></ul>
<h3>Why</h3>
<p>To fulfil orders, to answer your questions, to prevent fraud and, with your consent, to send you our newsletter.</p>
<h3>Your rights</h3>
<p>You may ask to access, correct or delete your personal information by writing to privacy@demo-store.example.com.</p>`,
  TERMS_OF_SERVICE: `<h2>Terms of service</h2>
<p>This website is operated by Demo Store. By visiting our site and/or purchasing something from us, you agree to be bound by the following terms and conditions.</p>
<h3>Section 1: Online store terms</h3>
<p>You must be at least the age of majority in your country to use this store. You may not use our products for any illegal or unauthorised purpose.</p>
<h3>Section 2: Accuracy of information</h3>
<p>We are not responsible if information made available on this site is not accurate, complete or current. Prices for our products are subject to change without notice.</p>`,
  TERMS_OF_SALE: `<h2>Terms of sale</h2>
<p>All prices include VAT. A contract is formed when we confirm the shipment of your order by email. Payment is due at checkout by card, PayPal or invoice (Germany only, 14 days).</p>
<p>Goods remain our property until paid for in full.</p>`,
  SUBSCRIPTION_POLICY: `<h2>Cancellation policy</h2>
<p>Coffee subscriptions renew every 4 weeks. You can skip, pause or cancel at any time from your account, up to 3 days before the next renewal date; later changes apply to the following delivery.</p>`,
  LEGAL_NOTICE: `<h2>Legal notice</h2>
<p>Demo Store GmbH, Hafenstraße 1, 20457 Hamburg, Germany. Managing director: Alex Example. Commercial register: HRB 000000, Hamburg District Court. VAT ID: DE000000000.</p>`,
  CONTACT_INFORMATION: `<h2>Contact</h2>
<p>Demo Store GmbH, Hafenstraße 1, 20457 Hamburg, Germany</p>
<p>Email: hello@demo-store.example.com · Phone: +49 40 0000000 (Monday to Friday, 9:00–17:00)</p>`,
};
