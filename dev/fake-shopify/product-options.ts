/**
 * A product's options as Shopify's 2026-10 schema serves them: `ProductOption { id name position
 * values optionValues { id name hasVariants } translations(locale:) }`, each option and option
 * value a translatable resource of its own (`PRODUCT_OPTION`, `PRODUCT_OPTION_VALUE`, key
 * `name`). The store keeps a product's options as `{name, values}`; their ids are made from the
 * product's id, the option's position and the value's text, so they stay put while the product
 * changes, and lead back to the product.
 */
import { createHash } from "node:crypto";
import { gid, numericPart, parseGid } from "./gid";
import type { Json } from "./store";

interface StoredOption {
  name: string;
  values: string[];
}

const VALUE_DIGITS = 6;

function valueDigits(value: string): string {
  const hash = createHash("sha256").update(value).digest();
  return String(hash.readUInt32BE(0) % 10 ** VALUE_DIGITS).padStart(VALUE_DIGITS, "0");
}

export function optionId(productId: string, position: number): string {
  return gid("ProductOption", `${numericPart(productId)}${position}`);
}

export function optionValueId(productId: string, position: number, value: string): string {
  return gid("ProductOptionValue", `${numericPart(productId)}${position}${valueDigits(value)}`);
}

const optionsOf = (product: Json): StoredOption[] =>
  Array.isArray(product.options) ? (product.options as StoredOption[]) : [];

/**
 * The option or option value a gid names, as a translatable resource `{id, name}`, or undefined.
 * `productOf` finds a product by its gid.
 */
export function optionResource(
  id: string,
  productOf: (productId: string) => Json | undefined,
): Json | undefined {
  const parsed = parseGid(id);
  if (!parsed || !/^\d+$/.test(parsed.id)) return undefined;
  if (parsed.type === "ProductOption") {
    const product = productOf(gid("Product", parsed.id.slice(0, -1)));
    const option = product && optionsOf(product)[Number(parsed.id.slice(-1)) - 1];
    return option && { id, name: option.name };
  }
  if (parsed.type === "ProductOptionValue") {
    const digits = parsed.id.slice(-VALUE_DIGITS);
    const rest = parsed.id.slice(0, -VALUE_DIGITS);
    const product = productOf(gid("Product", rest.slice(0, -1)));
    const option = product && optionsOf(product)[Number(rest.slice(-1)) - 1];
    const value = option?.values.find((candidate) => valueDigits(candidate) === digits);
    return value === undefined ? undefined : { id, name: value };
  }
  return undefined;
}

/** Every option (`ProductOption`) or every option value of these products, as resources. */
export function optionResources(products: Json[], type: "ProductOption" | "ProductOptionValue") {
  return products.flatMap((product) =>
    optionsOf(product).flatMap((option, index) =>
      type === "ProductOption"
        ? [{ id: optionId(String(product.id), index + 1), name: option.name }]
        : option.values.map((value) => ({
            id: optionValueId(String(product.id), index + 1, value),
            name: value,
          })),
    ),
  );
}

/** One `ProductOptionValue`: its id, name and `translations(locale:)`. */
function optionValueView(
  productId: string,
  position: number,
  value: string,
  translationsOf: (resourceId: string) => unknown,
): Json {
  const id = optionValueId(productId, position, value);
  return {
    __typename: "ProductOptionValue",
    id,
    name: value,
    hasVariants: true,
    translations: translationsOf(id),
  };
}

/** `Product.options` with ids, option values and their `translations(locale:)`. */
export function optionViews(
  product: Json,
  translationsOf: (resourceId: string) => unknown,
): Json[] {
  const productId = String(product.id);
  return optionsOf(product).map((option, index) => {
    const id = optionId(productId, index + 1);
    return {
      __typename: "ProductOption",
      id,
      name: option.name,
      position: index + 1,
      values: option.values,
      translations: translationsOf(id),
      optionValues: option.values.map((value) =>
        optionValueView(productId, index + 1, value, translationsOf),
      ),
    };
  });
}

/** A variant's `selectedOptions`, each with its `optionValue` (id, name, translations). */
export function selectedOptionViews(
  product: Json,
  selected: readonly { name: string; value: string }[],
  translationsOf: (resourceId: string) => unknown,
): Json[] {
  const productId = String(product.id);
  const options = optionsOf(product);
  return selected.map(({ name, value }) => {
    const position = options.findIndex((option) => option.name === name) + 1;
    return {
      __typename: "SelectedOption",
      name,
      value,
      optionValue: optionValueView(productId, position, value, translationsOf),
    };
  });
}
