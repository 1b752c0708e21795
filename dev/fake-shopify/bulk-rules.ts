/**
 * Checks a bulk query against the schema and Shopify's bulk rules (one top-level field, which is a
 * connection; at most 5 connections, nested at most 2 levels; no connection inside a list; a parent
 * of a nested connection selects `id`), and notes where its connections are, for the flattening.
 */
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  Kind,
  parse,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { isConnectionType } from "./cost";
import { validateDocument } from "./validation";

export const MAX_BULK_CONNECTIONS = 5;
export const MAX_BULK_DEPTH = 2;

export interface BulkPlan {
  document: DocumentNode;
  /** Response key of the top-level connection. */
  topField: string;
  /** Response-key paths (joined with ".") of every connection field, the top one included. */
  connectionPaths: ReadonlySet<string>;
}

export type BulkPlanResult = { plan: BulkPlan; errors: [] } | { plan: null; errors: string[] };

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  paths: Set<string>;
  connections: number;
  depth: number;
  errors: string[];
}

function fieldsOf(walk: Walk, selectionSet: SelectionSetNode, parent: GraphQLCompositeType) {
  const fields: { node: FieldNode; parent: GraphQLCompositeType }[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push({ node: selection, parent });
      continue;
    }
    const definition =
      selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments[selection.name.value] : selection;
    if (!definition) continue;
    const typeName = definition.typeCondition?.name.value;
    const type = typeName ? walk.schema.getType(typeName) : parent;
    if (type && isCompositeType(type))
      fields.push(...fieldsOf(walk, definition.selectionSet, type));
  }
  return fields;
}

/** Walks a selection set; returns the names of the connections found below it. */
function walkSelection(
  walk: Walk,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  path: string,
  depth: number,
  inList: boolean,
): string[] {
  const found: string[] = [];
  for (const { node, parent: owner } of fieldsOf(walk, selectionSet, parent)) {
    const definition = "getFields" in owner ? owner.getFields()[node.name.value] : undefined;
    if (!definition || !node.selectionSet) continue;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) continue;
    const key = node.alias?.value ?? node.name.value;
    const fieldPath = path === "" ? key : `${path}.${key}`;
    if (isConnectionType(type)) {
      found.push(node.name.value);
      walk.connections += 1;
      walk.depth = Math.max(walk.depth, depth + 1);
      walk.paths.add(fieldPath);
      if (inList) {
        walk.errors.push(
          "Queries that contain a connection field within a list field are not currently supported.",
        );
      }
      walkConnection(walk, node.selectionSet, type, fieldPath, depth + 1);
    } else {
      const list = isListType(getNullableType(definition.type));
      found.push(...walkSelection(walk, node.selectionSet, type, fieldPath, depth, inList || list));
    }
  }
  return found;
}

function walkConnection(
  walk: Walk,
  selectionSet: SelectionSetNode,
  connectionType: GraphQLCompositeType,
  path: string,
  depth: number,
) {
  for (const { node, parent } of fieldsOf(walk, selectionSet, connectionType)) {
    const definition = "getFields" in parent ? parent.getFields()[node.name.value] : undefined;
    const type = definition && getNamedType(definition.type);
    if (!node.selectionSet || !type || !isCompositeType(type)) continue;
    if (node.name.value === "nodes")
      walkNode(walk, node.selectionSet, type, `${path}.nodes`, depth);
    if (node.name.value !== "edges") continue;
    for (const inner of fieldsOf(walk, node.selectionSet, type)) {
      const innerDefinition =
        "getFields" in inner.parent ? inner.parent.getFields()[inner.node.name.value] : undefined;
      const nodeType = innerDefinition && getNamedType(innerDefinition.type);
      if (inner.node.name.value === "node" && inner.node.selectionSet && nodeType) {
        if (isCompositeType(nodeType)) {
          walkNode(walk, inner.node.selectionSet, nodeType, `${path}.edges.node`, depth);
        }
      }
    }
  }
}

function walkNode(
  walk: Walk,
  selectionSet: SelectionSetNode,
  type: GraphQLCompositeType,
  path: string,
  depth: number,
) {
  const nested = walkSelection(walk, selectionSet, type, path, depth, false);
  const selectsId = fieldsOf(walk, selectionSet, type).some(
    ({ node }) => node.name.value === "id" && node.alias === undefined,
  );
  if (nested.length > 0 && !selectsId) {
    walk.errors.push(
      "The parent 'node' field for a nested connection must select the 'id' field without an alias " +
        `and must be of 'ID' return type. Connection fields without 'id': ${nested.join(", ")}.`,
    );
  }
}

export function planBulkQuery(schema: GraphQLSchema, query: string): BulkPlanResult {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    return { plan: null, errors: [error instanceof GraphQLError ? error.message : String(error)] };
  }
  const invalid = validateDocument(schema, document);
  if (invalid.length > 0) return { plan: null, errors: invalid.map((error) => error.message) };

  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operations[0];
  if (operations.length !== 1 || !operation) {
    return { plan: null, errors: ["Bulk queries must contain exactly one operation."] };
  }
  if (operation.operation !== "query") {
    return {
      plan: null,
      errors: ["Bulk queries cannot contain mutations: use bulkOperationRunMutation."],
    };
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const walk: Walk = { schema, fragments, paths: new Set(), connections: 0, depth: 0, errors: [] };
  const root = schema.getQueryType();
  if (!root) return { plan: null, errors: ["The schema has no query type."] };

  const top = fieldsOf(walk, operation.selectionSet, root).filter(
    ({ node }) => node.name.value !== "__typename",
  );
  const topField = top[0];
  const topDefinition = topField && root.getFields()[topField.node.name.value];
  if (top.length !== 1 || !topField || !topDefinition) {
    return { plan: null, errors: ["Bulk queries must select exactly one top-level field."] };
  }
  if (!isConnectionType(getNamedType(topDefinition.type))) {
    return {
      plan: null,
      errors: [
        `The top-level field of a bulk query must be a connection; '${topField.node.name.value}' is not.`,
      ],
    };
  }
  walkSelection(walk, operation.selectionSet, root, "", 0, false);
  if (walk.connections > MAX_BULK_CONNECTIONS) {
    walk.errors.push(
      `Bulk queries cannot contain more than ${MAX_BULK_CONNECTIONS} connections; this one has ${walk.connections}.`,
    );
  }
  if (walk.depth > MAX_BULK_DEPTH) {
    walk.errors.push(
      `Bulk queries cannot nest connections more than ${MAX_BULK_DEPTH} levels deep; this one nests ${walk.depth}.`,
    );
  }
  if (walk.errors.length > 0) return { plan: null, errors: [...new Set(walk.errors)] };
  return {
    plan: {
      document,
      topField: topField.node.alias?.value ?? topField.node.name.value,
      connectionPaths: walk.paths,
    },
    errors: [],
  };
}
