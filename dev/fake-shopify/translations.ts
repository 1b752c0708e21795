/**
 * Translations, as Shopify 2026-10 keeps them: per resource (product, page, article, shop policy,
 * metaobject entry, metafield), per field key (`title`, `body_html`, `handle`, a policy's `body`,
 * an entry's text field keys, a metafield's `value`) and per locale, each with the digest of the
 * source text it translated. `translatableResource(s)` lists a resource's source text with its
 * digests and its translations; `Product.translations(locale:)` (also in bulk exports),
 * `Page.translations`, `Article.translations`, `ShopPolicy.translations` and
 * `Metafield.translations` answer the same records. `Metaobject` has no `translations` field in
 * the schema: an entry's are read through `translatableResource(s)` / `translatableResourcesByIds`. A translation whose source changed since it
 * was registered is `outdated`, as Shopify marks it.
 *
 * The merchant's changes are `translationsRegister` (the digest must be the source's current
 * one: a stale digest is refused with Shopify's user error, nothing saved) and
 * `translationsRemove`. No webhook: Shopify has no translations topic.
 */
import { createHash } from "node:crypto";
import { GraphQLError } from "graphql";
import { connection, type ConnectionArgs } from "./connection";
import { gidType } from "./gid";
import { accessDenied } from "./presences";
import type { Json } from "./store";

export interface TranslationRecord {
  key: string;
  locale: string;
  value: string;
  /** The digest of the source text this translates, when it was registered. */
  digest: string;
  updatedAt: string;
}

interface SourceField {
  key: string;
  value: string | null;
  type: "SINGLE_LINE_TEXT_FIELD" | "HTML" | "URI" | "MULTI_LINE_TEXT_FIELD" | "RICH_TEXT_FIELD";
}

/** What the fake models of `TranslatableResourceType`; others list no resources. */
const RESOURCE_TYPES = {
  PRODUCT: "Product",
  PAGE: "Page",
  ARTICLE: "Article",
  BLOG: "Blog",
  SHOP_POLICY: "ShopPolicy",
  METAOBJECT: "Metaobject",
  METAFIELD: "Metafield",
  PRODUCT_OPTION: "ProductOption",
  PRODUCT_OPTION_VALUE: "ProductOptionValue",
} as const;
type ResourceType = keyof typeof RESOURCE_TYPES;
export type TranslatableType = (typeof RESOURCE_TYPES)[ResourceType];

/**
 * The metafield and metaobject field types whose values Shopify offers for translation (text);
 * numbers, references, JSON and the like have nothing to translate.
 */
const TRANSLATABLE_VALUE_TYPES: Readonly<Record<string, SourceField["type"]>> = {
  single_line_text_field: "SINGLE_LINE_TEXT_FIELD",
  multi_line_text_field: "MULTI_LINE_TEXT_FIELD",
  rich_text_field: "RICH_TEXT_FIELD",
};

/** Shopify's digest of a translatable value: SHA-256 of the text, in hex. */
export function translationDigest(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A resource's translatable fields and their source text (the shop's primary locale). */
export function sourceFields(resource: Json): SourceField[] {
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  switch (gidType(resource.id)) {
    case "Product":
      return [
        { key: "title", value: text(resource.title), type: "SINGLE_LINE_TEXT_FIELD" },
        { key: "body_html", value: text(resource.descriptionHtml), type: "HTML" },
        { key: "handle", value: text(resource.handle), type: "URI" },
        { key: "product_type", value: text(resource.productType), type: "SINGLE_LINE_TEXT_FIELD" },
      ];
    case "Page":
      return [
        { key: "title", value: text(resource.title), type: "SINGLE_LINE_TEXT_FIELD" },
        { key: "body_html", value: text(resource.body), type: "HTML" },
        { key: "handle", value: text(resource.handle), type: "URI" },
      ];
    case "Article":
      return [
        { key: "title", value: text(resource.title), type: "SINGLE_LINE_TEXT_FIELD" },
        { key: "body_html", value: text(resource.body), type: "HTML" },
        { key: "summary_html", value: text(resource.summary), type: "HTML" },
        { key: "handle", value: text(resource.handle), type: "URI" },
      ];
    case "Blog":
      return [
        { key: "title", value: text(resource.title), type: "SINGLE_LINE_TEXT_FIELD" },
        { key: "handle", value: text(resource.handle), type: "URI" },
      ];
    case "ProductOption":
    case "ProductOptionValue":
      return [{ key: "name", value: text(resource.name), type: "SINGLE_LINE_TEXT_FIELD" }];
    case "ShopPolicy":
      // The title is Shopify's own name of the policy type, in the shopper's language: not content.
      return [{ key: "body", value: text(resource.body), type: "HTML" }];
    case "Metafield": {
      const type = TRANSLATABLE_VALUE_TYPES[String(resource.type)];
      return type ? [{ key: "value", value: text(resource.value), type }] : [];
    }
    case "Metaobject": {
      // Only a definition with the `translatable` capability offers its entries' text fields.
      if (resource.translatable !== true || !Array.isArray(resource.fields)) return [];
      return (resource.fields as Json[]).flatMap((field) => {
        const type = TRANSLATABLE_VALUE_TYPES[String(field.type)];
        return type ? [{ key: String(field.key), value: text(field.value), type }] : [];
      });
    }
    default:
      return [];
  }
}

export interface TranslationSources {
  /**
   * The resource's current fields, or undefined when there is none: a product, page or article as
   * stored; a policy `{id, body}`; a metafield `{id, type, value}`; an entry `{id, translatable,
   * fields: [{key, type, value}]}`.
   */
  resource(id: string): Json | undefined;
  /** Every resource of a type, in store order. */
  ofType(type: TranslatableType): Json[];
  /** The shop's locales: translations are accepted for the published and unpublished alternates. */
  locales(): { locale: string; primary: boolean }[];
  now(): string;
}

export interface TranslationInput {
  key: string;
  locale: string;
  value: string;
  translatableContentDigest: string;
  marketId?: string | null;
}

const READ_TRANSLATIONS = "`read_translations` access scope.";
const WRITE_TRANSLATIONS = "`write_translations` access scope.";

function userError(field: string[], message: string, code: string): Json {
  return { __typename: "TranslationUserError", field, message, code };
}

export class TranslationStore {
  /** resource gid → its translations. */
  readonly #byResource = new Map<string, TranslationRecord[]>();

  constructor(private readonly sources: TranslationSources) {}

  of(resourceId: string, locale?: string | null): TranslationRecord[] {
    const records = this.#byResource.get(resourceId) ?? [];
    return locale ? records.filter((record) => record.locale === locale) : [...records];
  }

  /** Whether a translation's source changed since it was registered. */
  outdated(resourceId: string, record: TranslationRecord): boolean {
    const resource = this.sources.resource(resourceId);
    const source = resource && sourceFields(resource).find((field) => field.key === record.key);
    return translationDigest(source?.value ?? "") !== record.digest;
  }

  /** Registers translations as translationsRegister does; all or nothing. */
  register(
    resourceId: string,
    inputs: readonly TranslationInput[],
  ): { translations: TranslationRecord[] | null; userErrors: Json[] } {
    const resource = this.sources.resource(resourceId);
    if (!resource) {
      return {
        translations: null,
        userErrors: [
          userError(["resourceId"], `Resource ${resourceId} does not exist`, "RESOURCE_NOT_FOUND"),
        ],
      };
    }
    const fields = sourceFields(resource);
    const locales = this.sources.locales();
    const errors: Json[] = [];
    inputs.forEach((input, index) => {
      const at = (field: string) => ["translations", String(index), field];
      const locale = locales.find((candidate) => candidate.locale === input.locale);
      const field = fields.find((candidate) => candidate.key === input.key);
      if (input.marketId) {
        errors.push(
          userError(
            at("marketId"),
            "The shop isn't allowed to operate on market custom content",
            "MARKET_CUSTOM_CONTENT_NOT_ALLOWED",
          ),
        );
      } else if (!locale || locale.primary) {
        errors.push(
          userError(at("locale"), "Locale is invalid for the shop", "INVALID_LOCALE_FOR_SHOP"),
        );
      } else if (!field) {
        errors.push(
          userError(
            at("key"),
            `Key ${input.key} is not a valid translatable field`,
            "INVALID_KEY_FOR_MODEL",
          ),
        );
      } else if (translationDigest(field.value ?? "") !== input.translatableContentDigest) {
        errors.push(
          userError(
            at("translatableContentDigest"),
            "Translatable content hash is invalid",
            "INVALID_TRANSLATABLE_CONTENT",
          ),
        );
      } else if (input.value.trim() === "") {
        errors.push(userError(at("value"), "Value can't be blank", "BLANK"));
      }
    });
    if (errors.length > 0) return { translations: null, userErrors: errors };
    const records = this.#byResource.get(resourceId) ?? [];
    const saved = inputs.map((input) => {
      const record: TranslationRecord = {
        key: input.key,
        locale: input.locale,
        value: input.value,
        digest: input.translatableContentDigest,
        updatedAt: this.sources.now(),
      };
      const existing = records.findIndex(
        (candidate) => candidate.key === input.key && candidate.locale === input.locale,
      );
      if (existing >= 0) records[existing] = record;
      else records.push(record);
      return record;
    });
    this.#byResource.set(resourceId, records);
    return { translations: saved, userErrors: [] };
  }

  /** A sample translation, registered against the source as it is now; the user errors, if any. */
  seed(resourceId: string, locale: string, values: Record<string, string>): Json[] {
    const resource = this.sources.resource(resourceId);
    if (!resource)
      return [
        userError(["resourceId"], `Resource ${resourceId} does not exist`, "RESOURCE_NOT_FOUND"),
      ];
    const fields = sourceFields(resource);
    const inputs = Object.entries(values).flatMap(([key, value]) => {
      const field = fields.find((candidate) => candidate.key === key);
      return field?.value
        ? [{ key, locale, value, translatableContentDigest: translationDigest(field.value) }]
        : [];
    });
    return this.register(resourceId, inputs).userErrors;
  }

  remove(
    resourceId: string,
    keys: readonly string[],
    locales: readonly string[],
  ): { translations: TranslationRecord[] | null; userErrors: Json[] } {
    if (!this.sources.resource(resourceId)) {
      return {
        translations: null,
        userErrors: [
          userError(["resourceId"], `Resource ${resourceId} does not exist`, "RESOURCE_NOT_FOUND"),
        ],
      };
    }
    const records = this.#byResource.get(resourceId) ?? [];
    const removed = records.filter((r) => keys.includes(r.key) && locales.includes(r.locale));
    this.#byResource.set(
      resourceId,
      records.filter((record) => !removed.includes(record)),
    );
    return { translations: removed, userErrors: [] };
  }

  // ——— Views ———

  translationView(resourceId: string, record: TranslationRecord): Json {
    return {
      __typename: "Translation",
      key: record.key,
      locale: record.locale,
      value: record.value,
      outdated: this.outdated(resourceId, record),
      updatedAt: record.updatedAt,
      market: null,
    };
  }

  /** `translations(locale:, marketId:)` of a Product, Page, Article, ShopPolicy or Metafield. */
  translationsField(resourceId: string) {
    return ({ locale, marketId }: { locale?: string | null; marketId?: string | null }) =>
      marketId
        ? []
        : this.of(resourceId, locale).map((record) => this.translationView(resourceId, record));
  }

  resourceView(resource: Json): Json {
    const resourceId = String(resource.id);
    const primary = this.sources.locales().find((locale) => locale.primary)?.locale ?? "en";
    return {
      __typename: "TranslatableResource",
      resourceId,
      translatableContent: () =>
        sourceFields(resource).map((field) => ({
          __typename: "TranslatableContent",
          key: field.key,
          value: field.value,
          digest: field.value === null ? null : translationDigest(field.value),
          locale: primary,
          type: field.type,
        })),
      translations: ({ locale, outdated }: { locale: string; outdated?: boolean | null }) =>
        this.of(resourceId, locale)
          .filter((record) => outdated == null || this.outdated(resourceId, record) === outdated)
          .map((record) => this.translationView(resourceId, record)),
      nestedTranslatableResources: (args: ConnectionArgs) => connection([], args, () => ({})),
    };
  }

  queries(scopesOf: (context: unknown) => readonly string[]): Json {
    const check = (context: unknown, field: string) => {
      if (!scopesOf(context).includes("read_translations"))
        throw accessDenied(field, READ_TRANSLATIONS);
    };
    return {
      translatableResource: ({ resourceId }: { resourceId: string }, context: unknown) => {
        check(context, "translatableResource");
        const resource = this.sources.resource(resourceId);
        return resource ? this.resourceView(resource) : null;
      },
      translatableResources: (
        args: ConnectionArgs & { resourceType: string },
        context: unknown,
      ) => {
        check(context, "translatableResources");
        const type = RESOURCE_TYPES[args.resourceType as ResourceType];
        const resources = type ? this.sources.ofType(type) : [];
        return connection(resources, args, (resource) => this.resourceView(resource));
      },
      translatableResourcesByIds: (
        args: ConnectionArgs & { resourceIds: string[] },
        context: unknown,
      ) => {
        check(context, "translatableResourcesByIds");
        const resources = args.resourceIds.flatMap((id) => {
          const resource = this.sources.resource(id);
          return resource ? [resource] : [];
        });
        return connection(resources, args, (resource) => this.resourceView(resource));
      },
    };
  }

  mutations(scopesOf: (context: unknown) => readonly string[]): Json {
    const check = (context: unknown, field: string) => {
      if (!scopesOf(context).includes("write_translations"))
        throw new GraphQLError(
          `Access denied for ${field} field. Required access: ${WRITE_TRANSLATIONS}`,
          { extensions: { code: "ACCESS_DENIED", requiredAccess: WRITE_TRANSLATIONS } },
        );
    };
    return {
      translationsRegister: (
        args: { resourceId: string; translations: TranslationInput[] },
        context: unknown,
      ) => {
        check(context, "translationsRegister");
        const { translations, userErrors } = this.register(args.resourceId, args.translations);
        return {
          translations:
            translations?.map((record) => this.translationView(args.resourceId, record)) ?? null,
          userErrors,
        };
      },
      translationsRemove: (
        args: {
          resourceId: string;
          translationKeys: string[];
          locales: string[];
          marketIds?: string[] | null;
        },
        context: unknown,
      ) => {
        check(context, "translationsRemove");
        const { translations, userErrors } = args.marketIds?.length
          ? { translations: [], userErrors: [] }
          : this.remove(args.resourceId, args.translationKeys, args.locales);
        return {
          translations:
            translations?.map((record) => ({
              ...this.translationView(args.resourceId, record),
              outdated: false,
            })) ?? null,
          userErrors,
        };
      },
    };
  }
}
