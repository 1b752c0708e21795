/**
 * A domain offer (for example a live-agent handoff): buttons for an `action_group`, or a form
 * with validation (required, email) for a `form` (shapes in docs/reference/service-gaps.md). The shopper's
 * answer goes back in the next chat request as `offerResponse: {domain, actionId, formData?}`.
 * Offers are rare, so this is a third asset (chat-offer.js), loaded when the first one arrives.
 */
import { list, obj, text } from "./data";
import { h, uid } from "./dom";
import type { Labels, OfferLabels } from "./labels";
import type { Offer, OfferAction, OfferField, OfferResponse } from "./model";
import css from "./styles/offer.css?inline";

export type Answer = (response: OfferResponse, label: string) => void;

/** English defaults of the form's texts (the shop's translations come in `labels`). */
export const OFFER_LABELS: OfferLabels = {
  cancel: "Cancel",
  submit: "Submit",
  required: "This field is required.",
  invalidEmail: "Enter a valid email address.",
};

function toAction(v: unknown): OfferAction | undefined {
  const o = obj(v);
  const id = typeof v === "string" ? v : text(o.id);
  return id ? { id, label: text(o.label), variant: text(o.variant) } : undefined;
}

const FIELD_TYPES = ["email", "tel", "textarea", "select"] as const;

function toField(v: unknown): OfferField | undefined {
  const o = obj(v);
  const id = text(o.id);
  return id
    ? {
        id,
        type: FIELD_TYPES.find((t) => t === o.type) ?? "text",
        label: text(o.label) || id,
        placeholder: text(o.placeholder),
        required: o.required === true,
        options: list(o.options).map((opt) => {
          const value = String(obj(opt).value ?? opt);
          return { value, label: text(obj(opt).label) || value };
        }),
      }
    : undefined;
}

/** The offer, checked field by field; undefined when it cannot be shown. */
export function toOffer(data: unknown): Offer | undefined {
  const d = obj(data);
  const ui = obj(d.ui);
  const domain = text(d.domain);
  const message = text(d.message);
  if (ui.component === "action_group") {
    const actions = list(ui.actions)
      .map(toAction)
      .filter((a): a is OfferAction => !!a?.label);
    return domain && actions.length
      ? { domain, message, ui: { component: "action_group", actions } }
      : undefined;
  }
  return domain && ui.component === "form"
    ? {
        domain,
        message,
        ui: {
          component: "form",
          title: text(ui.title),
          fields: list(ui.fields)
            .map(toField)
            .filter((f): f is OfferField => !!f),
          submitAction: toAction(ui.submitAction) ?? { id: "submit", label: "" },
          cancelAction: toAction(ui.cancelAction),
        },
      }
    : undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The error message for a field's value, or undefined when it is valid. */
export function validate(
  field: OfferField,
  value: string,
  labels: OfferLabels,
): string | undefined {
  const v = value.trim();
  if (field.required && !v) return labels.required;
  if (v && field.type === "email" && !EMAIL.test(v)) return labels.invalidEmail;
  return undefined;
}

function control(field: OfferField, id: string, errorId: string): HTMLInputElement {
  const common = {
    id,
    name: field.id,
    "aria-describedby": errorId,
    "aria-required": field.required && "true",
  };
  if (field.type === "textarea") {
    return h("textarea", { ...common, rows: "3", placeholder: field.placeholder }) as never;
  }
  if (field.type === "select") {
    return h(
      "select",
      common,
      h("option", { value: "" }, field.placeholder ?? ""),
      ...(field.options ?? []).map((o) => h("option", { value: o.value }, o.label)),
    ) as never;
  }
  return h("input", {
    ...common,
    type: field.type,
    placeholder: field.placeholder,
    autocomplete: field.type !== "text" && field.type,
  });
}

function formElement(
  offer: Offer & { ui: { component: "form" } },
  answered: boolean,
  labels: OfferLabels,
  answer: Answer,
): HTMLElement {
  const { ui, domain } = offer;
  const titleId = uid("offer");
  const fieldset = h(
    "fieldset",
    { disabled: answered },
    h("legend", { id: titleId }, ui.title || offer.message),
  );
  const inputs = ui.fields.map((field) => {
    const id = uid("f");
    const errorId = uid("fe");
    const el = control(field, id, errorId);
    const error = h("p", { class: "field-error", id: errorId, hidden: true });
    fieldset.append(
      h(
        "div",
        { class: "field" },
        h(
          "label",
          { for: id },
          field.label,
          field.required && h("span", { "aria-hidden": "true" }, " *"),
        ),
        el,
        error,
      ),
    );
    return { field, el, error };
  });
  const submitLabel = ui.submitAction.label || labels.submit;
  const actions = h(
    "div",
    { class: "actions" },
    h("button", { class: "btn primary" }, submitLabel),
  );
  const cancel = ui.cancelAction;
  if (cancel) {
    const label = cancel.label || labels.cancel;
    const button = h("button", { type: "button", class: "btn" }, label);
    button.addEventListener("click", () => {
      fieldset.disabled = true;
      answer({ domain, actionId: cancel.id }, label);
    });
    actions.append(button);
  }
  fieldset.append(actions);
  const form = h("form", { novalidate: true, "aria-labelledby": titleId }, fieldset);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let firstInvalid: HTMLElement | undefined;
    const formData: Record<string, string> = {};
    for (const { field, el, error } of inputs) {
      const message = validate(field, el.value, labels);
      error.textContent = message ?? "";
      error.hidden = !message;
      if (message) el.setAttribute("aria-invalid", "true");
      else el.removeAttribute("aria-invalid");
      formData[field.id] = el.value.trim();
      if (message) firstInvalid ??= el;
    }
    if (firstInvalid) return firstInvalid.focus();
    fieldset.disabled = true;
    answer({ domain, actionId: ui.submitAction.id, formData }, submitLabel);
  });
  return form;
}

/** The offer's elements, or nothing when the offer cannot be shown. */
export function offerNodes(
  data: unknown,
  answered: boolean,
  labels: Labels,
  answer: Answer,
): Node[] {
  const offer = toOffer(data);
  if (!offer) return [];
  const texts = { ...OFFER_LABELS, ...labels };
  const { ui, message, domain } = offer;
  if (ui.component === "form") {
    return [
      h("style", {}, css),
      ...(ui.title && message ? [h("p", {}, message)] : []),
      formElement({ ...offer, ui }, answered, texts, answer),
    ];
  }
  const group = h("div", { class: "actions", role: "group", "aria-label": message || undefined });
  for (const action of ui.actions) {
    const button = h(
      "button",
      { class: action.variant === "primary" ? "btn primary" : "btn", disabled: answered },
      action.label,
    );
    button.addEventListener("click", () => {
      group.querySelectorAll("button").forEach((b) => (b.disabled = true));
      answer({ domain, actionId: action.id }, action.label);
    });
    group.append(button);
  }
  return [...(message ? [h("p", {}, message)] : []), group];
}
