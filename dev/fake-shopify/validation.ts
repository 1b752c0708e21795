/**
 * Validation against the Admin schema, answered as Shopify answers it: graphql-js finds the
 * problems, and each error carries the GraphQL-Ruby code Shopify sends (`undefinedField`, …),
 * with Shopify's wording for the most common ones.
 */
import {
  FieldsOnCorrectTypeRule,
  GraphQLError,
  KnownArgumentNamesRule,
  KnownDirectivesRule,
  KnownFragmentNamesRule,
  KnownTypeNamesRule,
  LoneAnonymousOperationRule,
  NoFragmentCyclesRule,
  NoUndefinedVariablesRule,
  NoUnusedFragmentsRule,
  NoUnusedVariablesRule,
  OverlappingFieldsCanBeMergedRule,
  PossibleFragmentSpreadsRule,
  ProvidedRequiredArgumentsRule,
  ScalarLeafsRule,
  specifiedRules,
  UniqueArgumentNamesRule,
  UniqueFragmentNamesRule,
  UniqueOperationNamesRule,
  UniqueVariableNamesRule,
  validate,
  ValuesOfCorrectTypeRule,
  VariablesAreInputTypesRule,
  VariablesInAllowedPositionRule,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";

const CODES = new Map<ValidationRule, string>([
  [FieldsOnCorrectTypeRule, "undefinedField"],
  [KnownArgumentNamesRule, "argumentNotAccepted"],
  [ProvidedRequiredArgumentsRule, "missingRequiredArguments"],
  [ScalarLeafsRule, "selectionMismatch"],
  [KnownTypeNamesRule, "undefinedType"],
  [KnownFragmentNamesRule, "undefinedFragment"],
  [NoUnusedFragmentsRule, "useAndDefineFragment"],
  [PossibleFragmentSpreadsRule, "cannotSpreadFragment"],
  [NoFragmentCyclesRule, "infiniteLoop"],
  [UniqueFragmentNamesRule, "fragmentNotUnique"],
  [NoUndefinedVariablesRule, "variableNotDefined"],
  [NoUnusedVariablesRule, "variableNotUsed"],
  [UniqueVariableNamesRule, "variableNotUnique"],
  [VariablesAreInputTypesRule, "variableRequiresValidType"],
  [VariablesInAllowedPositionRule, "variableMismatch"],
  [ValuesOfCorrectTypeRule, "argumentLiteralsIncompatible"],
  [UniqueArgumentNamesRule, "argumentNotUnique"],
  [OverlappingFieldsCanBeMergedRule, "fieldConflict"],
  [KnownDirectivesRule, "undefinedDirective"],
  [UniqueOperationNamesRule, "uniquelyNamedOperations"],
  [LoneAnonymousOperationRule, "anonymousOperationNotAlone"],
]);

interface ShopifyWording {
  message: string;
  extensions: Record<string, unknown>;
}

/** GraphQL-Ruby's messages for the errors a client most often makes. */
function shopifyWording(code: string, message: string): ShopifyWording | null {
  let match: RegExpExecArray | null;
  if (
    code === "undefinedField" &&
    (match = /^Cannot query field "(\w+)" on type "(\w+)"/.exec(message))
  ) {
    const [, fieldName, typeName] = match;
    return {
      message: `Field '${fieldName}' doesn't exist on type '${typeName}'`,
      extensions: { code, typeName, fieldName },
    };
  }
  if (
    code === "argumentNotAccepted" &&
    (match = /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"/.exec(message))
  ) {
    const [, argumentName, , name] = match;
    return {
      message: `Field '${name}' doesn't accept argument '${argumentName}'`,
      extensions: { code, name, typeName: "Field", argumentName },
    };
  }
  if (
    code === "missingRequiredArguments" &&
    (match = /^Field "(\w+)" argument "(\w+)" of type .* is required/.exec(message))
  ) {
    const [, name, argument] = match;
    return {
      message: `Field '${name}' is missing required arguments: ${argument}`,
      extensions: { code, className: "Field", name, arguments: argument },
    };
  }
  if (code === "variableNotUsed" && (match = /^Variable "\$(\w+)" is never used/.exec(message))) {
    const [, variableName] = match;
    return {
      message: `Variable $${variableName} is declared but not used`,
      extensions: { code, variableName },
    };
  }
  return null;
}

function formatted(error: GraphQLError, code: string): GraphQLFormattedError {
  const wording = shopifyWording(code, error.message);
  return {
    message: wording?.message ?? error.message,
    ...(error.locations ? { locations: error.locations } : {}),
    extensions: wording?.extensions ?? { code },
  };
}

/** Shopify-shaped validation errors; empty when the document is valid. */
export function validateDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
): GraphQLFormattedError[] {
  if (validate(schema, document).length === 0) return [];
  // Only for invalid documents: validate rule by rule to know which rule each error comes from.
  return specifiedRules.flatMap((rule) =>
    validate(schema, document, [rule]).map((error) =>
      formatted(error, CODES.get(rule) ?? "validationError"),
    ),
  );
}

/** A document that does not parse, as Shopify reports it (no code). */
export function syntaxError(error: GraphQLError): GraphQLFormattedError {
  return {
    message: error.message,
    ...(error.locations ? { locations: error.locations } : {}),
  };
}
