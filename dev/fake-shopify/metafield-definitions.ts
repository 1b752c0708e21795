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
