/**
 * Query cost as Shopify calculates it, simplified: scalars and enums 0, objects 1, connections
 * 2 + `first`/`last` × the cost of one node, a list field asked for by a list argument (`nodes(ids:)`)
 * that many times its item, each top-level mutation field 10. The requested cost comes from the
 * document and its arguments; the actual cost from what the response holds.
 */
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  GraphQLError,
  isAbstractType,
  isCompositeType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

export const MUTATION_COST = 10;
export const MAX_QUERY_COST = 1000;

interface CostContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  errors: GraphQLError[];
}

export function isConnectionType(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith("Connection") && "edges" in type.getFields();
}

function fieldDefinition(
  parent: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  return "getFields" in parent ? parent.getFields()[name] : undefined;
}

/** Fields of a selection set, fragments flattened, with the type each one is selected on. */
function fieldsOf(
  context: CostContext,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
): { own: FieldNode[]; fragments: { type: GraphQLCompositeType; set: SelectionSetNode }[] } {
  const own: FieldNode[] = [];
  const fragments: { type: GraphQLCompositeType; set: SelectionSetNode }[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) own.push(selection);
    else {
      const definition =
        selection.kind === Kind.FRAGMENT_SPREAD
          ? context.fragments[selection.name.value]
          : selection;
      if (!definition) continue;
      const typeName = definition.typeCondition?.name.value;
      const type = typeName ? context.schema.getType(typeName) : parent;
      if (type && isCompositeType(type)) fragments.push({ type, set: definition.selectionSet });
    }
  }
  return { own, fragments };
}

function selectionCost(
  context: CostContext,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
): number {
  const { own, fragments } = fieldsOf(context, selectionSet, parent);
  let total = 0;
  for (const field of own) total += fieldCost(context, field, parent);
  // Fragments on the same type add up; on an abstract type only the dearest possible type counts.
  let dearest = 0;
  for (const fragment of fragments) {
    const cost = selectionCost(context, fragment.set, fragment.type);
    if (fragment.type === parent) total += cost;
    else dearest = Math.max(dearest, cost);
  }
  return total + dearest;
}

/** The `node { … }` and `nodes { … }` selections of a connection field. */
function connectionNodeCost(
  context: CostContext,
  selectionSet: SelectionSetNode,
  connectionType: GraphQLCompositeType,
): number {
  let cost = 0;
  const { own } = fieldsOf(context, selectionSet, connectionType);
  for (const field of own) {
    const definition = fieldDefinition(connectionType, field.name.value);
    if (!definition || !field.selectionSet) continue;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) continue;
    if (field.name.value === "nodes") cost += 1 + selectionCost(context, field.selectionSet, type);
    if (field.name.value === "edges") {
      for (const inner of fieldsOf(context, field.selectionSet, type).own) {
        const nodeDefinition = fieldDefinition(type, inner.name.value);
        const nodeType = nodeDefinition && getNamedType(nodeDefinition.type);
        if (
          inner.name.value === "node" &&
          inner.selectionSet &&
          nodeType &&
          isCompositeType(nodeType)
        ) {
          cost += 1 + selectionCost(context, inner.selectionSet, nodeType);
        }
      }
    }
  }
  return cost;
}

function fieldCost(context: CostContext, field: FieldNode, parent: GraphQLCompositeType): number {
  const definition = fieldDefinition(parent, field.name.value);
  if (!definition) return 0;
  const type = getNamedType(definition.type);
  if (isLeafType(type) || !field.selectionSet || !isCompositeType(type)) return 0;
  let args: Record<string, unknown> = {};
  try {
    args = getArgumentValues(definition, field, context.variables);
  } catch {
    // Invalid arguments are reported by execution.
  }
  if (isConnectionType(type)) {
    const size = typeof args.first === "number" ? args.first : args.last;
    if (typeof size !== "number") {
      context.errors.push(
        new GraphQLError("you must provide one of first or last", { nodes: field }),
      );
      return 2;
    }
    return 2 + size * connectionNodeCost(context, field.selectionSet, type);
  }
  const inner = 1 + selectionCost(context, field.selectionSet, type);
  if (isListType(getNullableType(definition.type))) {
    const listArgument = Object.values(args).find(Array.isArray) as unknown[] | undefined;
    return (listArgument?.length ?? 1) * inner;
  }
  return inner;
}

export interface RequestedCost {
  cost: number;
  /** Connections asked for without `first` or `last`: Shopify refuses them. */
  errors: GraphQLError[];
}

export function requestedCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): RequestedCost {
  const context: CostContext = { schema, fragments, variables, errors: [] };
  if (operation.operation === "mutation") {
    const fields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
    return { cost: MUTATION_COST * fields.length, errors: [] };
  }
  const root =
    operation.operation === "query" ? schema.getQueryType() : schema.getSubscriptionType();
  if (!root) return { cost: 0, errors: [] };
  return { cost: selectionCost(context, operation.selectionSet, root), errors: context.errors };
}

/** Objects and connection nodes actually returned, priced with the same rules. */
export function actualCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  data: unknown,
): number {
  if (operation.operation === "mutation") {
    return (
      MUTATION_COST * operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD).length
    );
  }
  const root = schema.getQueryType();
  if (!root || !isRecord(data)) return 0;
  const context: CostContext = { schema, fragments, variables: {}, errors: [] };
  return dataCost(context, operation.selectionSet, root, data);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function dataCost(
  context: CostContext,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  data: Record<string, unknown>,
): number {
  const { own, fragments } = fieldsOf(context, selectionSet, parent);
  let total = 0;
  for (const field of own) {
    const definition = fieldDefinition(parent, field.name.value);
    const value = data[field.alias?.value ?? field.name.value];
    if (!definition || !field.selectionSet || value === null || value === undefined) continue;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) continue;
    if (isConnectionType(type) && isRecord(value)) {
      total += 2 + connectionDataCost(context, field.selectionSet, type, value);
    } else total += valueCost(context, field.selectionSet, type, value);
  }
  for (const fragment of fragments) {
    // A fragment counts when the response holds what it selects (it matched the runtime type).
    if (isAbstractType(fragment.type) || fragment.type === parent || matches(fragment.set, data)) {
      total += dataCost(context, fragment.set, fragment.type, data);
    }
  }
  return total;
}

function matches(selectionSet: SelectionSetNode, data: Record<string, unknown>): boolean {
  return selectionSet.selections.some(
    (selection) =>
      selection.kind === Kind.FIELD &&
      selection.name.value !== "__typename" &&
      (selection.alias?.value ?? selection.name.value) in data,
  );
}

function valueCost(
  context: CostContext,
  selectionSet: SelectionSetNode,
  type: GraphQLCompositeType,
  value: unknown,
): number {
  if (Array.isArray(value)) {
    return value.reduce<number>(
      (sum, item) => sum + valueCost(context, selectionSet, type, item),
      0,
    );
  }
  if (!isRecord(value)) return 0;
  return 1 + dataCost(context, selectionSet, type, value);
}

function connectionDataCost(
  context: CostContext,
  selectionSet: SelectionSetNode,
  connectionType: GraphQLCompositeType,
  value: Record<string, unknown>,
): number {
  let total = 0;
  for (const field of fieldsOf(context, selectionSet, connectionType).own) {
    const key = field.alias?.value ?? field.name.value;
    const definition = fieldDefinition(connectionType, field.name.value);
    const list = value[key];
    if (!definition || !field.selectionSet || !Array.isArray(list)) continue;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) continue;
    if (field.name.value === "nodes") total += valueCost(context, field.selectionSet, type, list);
    if (field.name.value === "edges") {
      for (const inner of fieldsOf(context, field.selectionSet, type).own) {
        const nodeDefinition = fieldDefinition(type, inner.name.value);
        const nodeType = nodeDefinition && getNamedType(nodeDefinition.type);
        if (inner.name.value !== "node" || !inner.selectionSet || !nodeType) continue;
        if (!isCompositeType(nodeType)) continue;
        const nodeKey = inner.alias?.value ?? "node";
        for (const edge of list) {
          if (isRecord(edge))
            total += valueCost(context, inner.selectionSet, nodeType, edge[nodeKey]);
        }
      }
    }
  }
  return total;
}
