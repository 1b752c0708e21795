/**
 * Metaobject definitions and their entries (`metaobjectDefinitions`, `metaobjects(type:)`,
 * `metaobject(id:)`, `metaobjectByHandle`, `metaobjectCreate|Update|Delete`), as Shopify answers
 * them: an entry lists every field of its definition (null value when it has none), its
 * `displayName` is the value of the definition's `displayNameKey` field, and `metaobjectsCount`
 * counts the entries. Reads are refused without `read_metaobjects` /
 * `read_metaobject_definitions` and writes without `write_metaobjects`, as Shopify does.
 * Shopify sends `metaobjects/*` webhooks only to subscriptions filtered by type; the app has none,
 * so none are sent here.
 */
import { GraphQLError } from "graphql";
import {
  SAMPLE_METAOBJECT_DEFINITIONS,
  SAMPLE_METAOBJECT_ENTRIES,
  type SampleMetaobjectDefinition,
} from "../sample-store/metaobjects";
import { connection, type ConnectionArgs } from "./connection";
import { gid } from "./gid";
import type { Json } from "./store";

export interface MetaobjectDefinitionRecord extends SampleMetaobjectDefinition {
  id: string;
  createdAt: string;
  updatedAt: string;
}

export interface MetaobjectRecord {
  id: string;
  type: string;
  handle: string;
  status: "ACTIVE" | "DRAFT";
  /** Field key → stored value. */
  fields: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export interface MetaobjectUserError {
  field: string[] | null;
  message: string;
  code: string;
  elementKey?: string | null;
}

export class MetaobjectStore {
  readonly definitions: MetaobjectDefinitionRecord[] = [];
  readonly entries: MetaobjectRecord[] = [];
  #nextDefinition = 3_100_000_001;
  #nextEntry = 3_200_000_001;

  /** The sample definitions and entries (dev/sample-store/metaobjects.ts). */
  loadSample(now: string): void {
    for (const definition of SAMPLE_METAOBJECT_DEFINITIONS) {
      this.definitions.push({
        ...definition,
        id: gid("MetaobjectDefinition", this.#nextDefinition++),
        createdAt: now,
        updatedAt: now,
      });
    }
    for (const entry of SAMPLE_METAOBJECT_ENTRIES) {
      const { userErrors } = this.create(
        { type: entry.type, handle: entry.handle, fields: entry.fields, status: entry.status },
        now,
      );
      if (userErrors.length > 0) throw new Error(JSON.stringify(userErrors));
    }
  }

  definitionOf(type: string): MetaobjectDefinitionRecord | undefined {
    return this.definitions.find((definition) => definition.type === type);
  }

  byId(id: string): MetaobjectRecord | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  ofType(type: string): MetaobjectRecord[] {
    return this.entries.filter((entry) => entry.type === type);
  }

  create(
    input: {
      type: string;
      handle?: string | null;
      fields?: Readonly<Record<string, string>>;
      status?: "ACTIVE" | "DRAFT" | undefined;
    },
    now: string,
  ): { entry: MetaobjectRecord | null; userErrors: MetaobjectUserError[] } {
    const definition = this.definitionOf(input.type);
    if (!definition) {
      return {
        entry: null,
        userErrors: [
          {
            field: ["metaobject", "type"],
            message: `No metaobject definition exists for type "${input.type}"`,
            code: "UNDEFINED_OBJECT_TYPE",
          },
        ],
      };
    }
    const fields = input.fields ?? {};
    const errors = fieldErrors(definition, fields, true);
    const handle = input.handle ?? `${input.type}-${this.#nextEntry}`;
    if (this.ofType(input.type).some((entry) => entry.handle === handle)) {
      errors.push({
        field: ["metaobject", "handle"],
        message: "Handle has already been taken",
        code: "TAKEN",
      });
    }
    if (errors.length > 0) return { entry: null, userErrors: errors };
    const entry: MetaobjectRecord = {
      id: gid("Metaobject", this.#nextEntry++),
      type: input.type,
      handle,
      status: input.status ?? "ACTIVE",
      fields: { ...fields },
      createdAt: now,
      updatedAt: now,
    };
    this.entries.push(entry);
    return { entry, userErrors: [] };
  }

  /** A merchant's edit: the fields given change (an empty value clears one); `updatedAt` moves. */
  update(
    id: string,
    input: {
      fields?: Readonly<Record<string, string>>;
      handle?: string | null;
      status?: "ACTIVE" | "DRAFT";
    },
    now: string,
  ): { entry: MetaobjectRecord | null; userErrors: MetaobjectUserError[] } {
    const entry = this.byId(id);
    if (!entry) {
      return {
        entry: null,
        userErrors: [{ field: ["id"], message: "Record not found", code: "RECORD_NOT_FOUND" }],
      };
    }
    const definition = this.definitionOf(entry.type)!;
    const errors = fieldErrors(definition, input.fields ?? {}, false);
    if (errors.length > 0) return { entry: null, userErrors: errors };
    for (const [key, value] of Object.entries(input.fields ?? {})) {
      if (value === "") delete entry.fields[key];
      else entry.fields[key] = value;
    }
    if (input.handle) entry.handle = input.handle;
    if (input.status) entry.status = input.status;
    entry.updatedAt = now;
    return { entry, userErrors: [] };
  }

  delete(id: string): MetaobjectRecord | undefined {
    const index = this.entries.findIndex((entry) => entry.id === id);
    return index < 0 ? undefined : this.entries.splice(index, 1)[0];
  }
}

/** Unknown keys, and (on create) required fields left empty, as Shopify refuses them. */
function fieldErrors(
  definition: SampleMetaobjectDefinition,
  fields: Readonly<Record<string, string>>,
  creating: boolean,
): MetaobjectUserError[] {
  const errors: MetaobjectUserError[] = [];
  for (const key of Object.keys(fields)) {
    if (!definition.fields.some((field) => field.key === key)) {
      errors.push({
        field: ["metaobject", "fields"],
        message: `Field definition "${key}" does not exist`,
        code: "UNDEFINED_OBJECT_FIELD",
        elementKey: key,
      });
    }
  }
  for (const field of definition.fields) {
    const value = fields[field.key];
    if (field.required && (creating ? !value : value === "")) {
      errors.push({
        field: ["metaobject", "fields"],
        message: `${field.name} can't be blank`,
        code: "OBJECT_FIELD_REQUIRED",
        elementKey: field.key,
      });
    }
  }
  return errors;
}

function accessDenied(field: string, scope: string): GraphQLError {
  return new GraphQLError(
    `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
    { extensions: { code: "ACCESS_DENIED", requiredAccess: `\`${scope}\` access scope.` } },
  );
}

function typeView(type: string): Json {
  return { __typename: "MetafieldDefinitionType", name: type, category: type };
}

function fieldDefinitionView(field: SampleMetaobjectDefinition["fields"][number]): Json {
  return {
    __typename: "MetaobjectFieldDefinition",
    key: field.key,
    name: field.name,
    description: null,
    required: field.required ?? false,
    type: typeView(field.type),
    validations: [],
  };
}

function definitionView(store: MetaobjectStore, record: MetaobjectDefinitionRecord): Json {
  const entries = () => store.ofType(record.type);
  return {
    __typename: "MetaobjectDefinition",
    id: record.id,
    name: record.name,
    type: record.type,
    description: null,
    displayNameKey: record.displayNameKey,
    hasThumbnailField: false,
    access: {
      __typename: "MetaobjectAccess",
      admin: "MERCHANT_READ_WRITE",
      storefront: record.storefrontAccess ?? "PUBLIC_READ",
      customerAccount: "NONE",
    },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    fieldDefinitions: record.fields.map(fieldDefinitionView),
    metaobjectsCount: () => entries().length,
    metaobjects: (args: ConnectionArgs) =>
      connection(entries(), args, (entry) => metaobjectView(store, entry)),
    capabilities: {
      __typename: "MetaobjectCapabilities",
      publishable: { __typename: "MetaobjectCapabilitiesPublishable", enabled: true },
      translatable: {
        __typename: "MetaobjectCapabilitiesTranslatable",
        enabled: record.translatable === true,
      },
      renderable: null,
      onlineStore: record.onlineStoreUrlHandle
        ? {
            __typename: "MetaobjectCapabilitiesOnlineStore",
            enabled: true,
            data: {
              __typename: "MetaobjectCapabilityDefinitionDataOnlineStore",
              urlHandle: record.onlineStoreUrlHandle,
              canCreateRedirects: true,
            },
          }
        : null,
    },
  };
}

export function metaobjectView(store: MetaobjectStore, entry: MetaobjectRecord): Json {
  const definition = store.definitionOf(entry.type)!;
  const fieldView = (field: SampleMetaobjectDefinition["fields"][number]): Json => {
    const value = entry.fields[field.key] ?? null;
    let jsonValue: unknown = value;
    try {
      jsonValue = value === null ? null : JSON.parse(value);
    } catch {
      // Text types' jsonValue is the string itself.
    }
    return {
      __typename: "MetaobjectField",
      key: field.key,
      type: field.type,
      value,
      jsonValue,
      definition: fieldDefinitionView(field),
      reference: null,
    };
  };
  const named = entry.fields[definition.displayNameKey];
  return {
    __typename: "Metaobject",
    id: entry.id,
    handle: entry.handle,
    type: entry.type,
    displayName: named || `${definition.name} #${entry.id.split("/").pop()}`,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    capabilities: {
      __typename: "MetaobjectCapabilityData",
      publishable: { __typename: "MetaobjectCapabilityDataPublishable", status: entry.status },
      onlineStore: definition.onlineStoreUrlHandle
        ? { __typename: "MetaobjectCapabilityDataOnlineStore", templateSuffix: null }
        : null,
    },
    definition: () => definitionView(store, definition),
    fields: definition.fields.map(fieldView),
    field: ({ key }: { key: string }) => {
      const field = definition.fields.find((candidate) => candidate.key === key);
      return field ? fieldView(field) : null;
    },
  };
}

/** The node of a Metaobject or MetaobjectDefinition gid; null when there is none. */
export function metaobjectNode(store: MetaobjectStore, id: string): Json | null {
  const entry = store.byId(id);
  if (entry) return metaobjectView(store, entry);
  const definition = store.definitions.find((record) => record.id === id);
  return definition ? definitionView(store, definition) : null;
}

/** The query root's metaobject fields. */
export function metaobjectQueries(store: MetaobjectStore, scopes: () => readonly string[]): Json {
  const need = (field: string, scope: string) => {
    if (!scopes().includes(scope)) throw accessDenied(field, scope);
  };
  return {
    metaobjectDefinitions: (args: ConnectionArgs) => {
      need("metaobjectDefinitions", "read_metaobject_definitions");
      return connection(store.definitions, args, (record) => definitionView(store, record));
    },
    metaobjectDefinition: ({ id }: { id: string }) => {
      need("metaobjectDefinition", "read_metaobject_definitions");
      const record = store.definitions.find((candidate) => candidate.id === id);
      return record ? definitionView(store, record) : null;
    },
    metaobjectDefinitionByType: ({ type }: { type: string }) => {
      need("metaobjectDefinitionByType", "read_metaobject_definitions");
      const record = store.definitionOf(type);
      return record ? definitionView(store, record) : null;
    },
    // A type no definition has (deleted meanwhile) has no entries.
    metaobjects: (args: ConnectionArgs & { type: string }) => {
      need("metaobjects", "read_metaobjects");
      return connection(store.ofType(args.type), args, (entry) => metaobjectView(store, entry));
    },
    metaobject: ({ id }: { id: string }) => {
      need("metaobject", "read_metaobjects");
      const entry = store.byId(id);
      return entry ? metaobjectView(store, entry) : null;
    },
    metaobjectByHandle: ({ handle }: { handle: { type: string; handle: string } }) => {
      need("metaobjectByHandle", "read_metaobjects");
      const entry = store
        .ofType(handle.type)
        .find((candidate) => candidate.handle === handle.handle);
      return entry ? metaobjectView(store, entry) : null;
    },
  };
}

type FieldInput = { key: string; value: string }[] | null | undefined;
type CapabilityInput = { publishable?: { status: "ACTIVE" | "DRAFT" } | null } | null | undefined;

function fieldsOf(input: FieldInput): Record<string, string> {
  return Object.fromEntries((input ?? []).map(({ key, value }) => [key, value]));
}

function userErrorViews(errors: MetaobjectUserError[]): Json[] {
  return errors.map((error) => ({
    __typename: "MetaobjectUserError",
    elementKey: null,
    elementIndex: null,
    ...error,
  }));
}

/** The mutation root's metaobject fields (a merchant's or an app's edits). */
export function metaobjectMutations(
  store: MetaobjectStore,
  scopes: () => readonly string[],
  now: () => string,
): Json {
  const need = (field: string) => {
    if (!scopes().includes("write_metaobjects")) throw accessDenied(field, "write_metaobjects");
  };
  return {
    metaobjectCreate: ({
      metaobject,
    }: {
      metaobject: {
        type: string;
        handle?: string | null;
        fields?: FieldInput;
        capabilities?: CapabilityInput;
      };
    }) => {
      need("metaobjectCreate");
      const { entry, userErrors } = store.create(
        {
          type: metaobject.type,
          handle: metaobject.handle ?? null,
          fields: fieldsOf(metaobject.fields),
          status: metaobject.capabilities?.publishable?.status,
        },
        now(),
      );
      return {
        metaobject: entry ? metaobjectView(store, entry) : null,
        userErrors: userErrorViews(userErrors),
      };
    },
    metaobjectUpdate: ({
      id,
      metaobject,
    }: {
      id: string;
      metaobject: { handle?: string | null; fields?: FieldInput; capabilities?: CapabilityInput };
    }) => {
      need("metaobjectUpdate");
      const { entry, userErrors } = store.update(
        id,
        {
          fields: fieldsOf(metaobject.fields),
          handle: metaobject.handle ?? null,
          ...(metaobject.capabilities?.publishable
            ? { status: metaobject.capabilities.publishable.status }
            : {}),
        },
        now(),
      );
      return {
        metaobject: entry ? metaobjectView(store, entry) : null,
        userErrors: userErrorViews(userErrors),
      };
    },
    metaobjectDelete: ({ id }: { id: string }) => {
      need("metaobjectDelete");
      const entry = store.delete(id);
      return entry
        ? { deletedId: entry.id, userErrors: [] }
        : {
            deletedId: null,
            userErrors: userErrorViews([
              { field: ["id"], message: "Record not found", code: "RECORD_NOT_FOUND" },
            ]),
          };
    },
  };
}
