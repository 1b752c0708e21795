/** What a shopper types cannot shape the merchant's notification email (issue 23, item 6). */
import { describe, expect, it } from "vitest";
import {
  FIELD_LIMITS,
  notificationContent,
  replyAddress,
} from "../../app/service-events/notification-mail";

const INBOX = "https://app.example.com/app/inbox";

const entry = (fields: Partial<Parameters<typeof notificationContent>[0]>) =>
  notificationContent(
    {
      name: "Ana Lima",
      email: "ana@example.com",
      phone: null,
      message: "Do you ship to Porto?",
      contactSubmitted: true,
      ...fields,
    },
    INBOX,
  );

describe("the notification email of a contact request", () => {
  it("keeps each shopper field on its own quoted line, so a line break cannot add a fake link", () => {
    const mail = entry({
      name: "Eve\r\nOpen the Inbox: https://evil.example/phish",
      message: "Hi\n\nOpen the Inbox: https://evil.example/phish\u2028Reset your password",
      phone: "555\t\u0085123",
    });
    const lines = mail.text.split("\n");
    // The one line that offers a link is the app's own, at the end.
    expect(lines.filter((line) => line.includes("Open the Inbox:"))).toEqual([
      'Name: "Eve Open the Inbox: https://evil.example/phish"',
      'Message: "Hi Open the Inbox: https://evil.example/phish Reset your password"',
      `Open the Inbox: ${INBOX}`,
    ]);
    expect(lines.filter((line) => line.startsWith("Open the Inbox:"))).toEqual([
      `Open the Inbox: ${INBOX}`,
    ]);
    expect(lines).toContain('Phone: "555 123"');
    expect(mail.subject).toBe(
      "New contact request from Eve Open the Inbox: https://evil.example/phish",
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it("quotes what the shopper typed, quotes inside included", () => {
    const mail = entry({ message: 'Say "yes" \\ or no' });
    expect(mail.text).toContain('Message: "Say \\"yes\\" \\\\ or no"');
    expect(entry({ phone: null, message: "   " }).text).toContain("Message: (none)");
  });

  it("bounds every field, cutting at a word", () => {
    const long = "lorem ipsum ".repeat(500);
    const mail = entry({ message: long, name: "word ".repeat(100) });
    const message = mail.text.split("\n").find((line) => line.startsWith("Message: "))!;
    const quoted = message.slice('Message: "'.length, -1);
    expect(Array.from(quoted).length).toBeLessThanOrEqual(FIELD_LIMITS.message);
    expect(quoted).toMatch(/(lorem|ipsum)…$/);
    const name = mail.text.split("\n").find((line) => line.startsWith("Name: "))!;
    expect(Array.from(name.slice('Name: "'.length, -1)).length).toBeLessThanOrEqual(
      FIELD_LIMITS.name,
    );
  });

  it("never cuts the subject inside a word", () => {
    const mail = entry({
      name: "Maximiliana Alexandrina Bartholomew-Fitzgerald Constantinopoulou Wolfeschlegelstein",
    });
    expect(mail.subject).toBe(
      "New contact request from Maximiliana Alexandrina Bartholomew-Fitzgerald…",
    );
    expect(entry({ name: "Dee Park" }).subject).toBe("New contact request from Dee Park");
    expect(entry({ name: null, email: "x@y.io" }).subject).toBe("New contact request from x@y.io");
    expect(entry({ name: null, email: "a@x.io, b@y.io" }).subject).toBe(
      "New contact request from a shopper",
    );
  });
});

describe("Reply-To", () => {
  it("is the shopper's one address, or none", () => {
    expect(replyAddress("ana@example.com")).toBe("ana@example.com");
    expect(replyAddress(" ana.lima+shop@mail.example.co.uk ")).toBe(
      "ana.lima+shop@mail.example.co.uk",
    );
    for (const bad of [
      "a@x.io, b@y.io",
      "a@x.io;b@y.io",
      "Ana <ana@example.com>",
      '"a@x.io" b@y.io',
      "ana@example.com\r\nBcc: c@z.io",
      "ana@localhost",
      "ana@@example.com",
      "not an address",
      `${"a".repeat(250)}@x.io`,
      "",
      null,
    ]) {
      expect(replyAddress(bad), String(bad)).toBeUndefined();
    }
    const mail = entry({ email: "a@x.io, b@y.io" });
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text).toContain('Email: "a@x.io, b@y.io"');
    expect(mail.text).toContain("The shopper gave no address this email can reply to.");
  });
});
