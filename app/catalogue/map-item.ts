import type { MapContext, MapResult } from "./index-types";
import { mapArticle, mapPage } from "./map-post";
import { mapMetaobject } from "./map-metaobject";
import { mapShopPolicy } from "./map-policy";
import { mapProduct } from "./map-product";
import type { CatalogueItem } from "./shopify-types";

/** Maps any assembled bulk-export object to what the service should hold (or drop). */
export function mapCatalogueItem(item: CatalogueItem, context: MapContext): MapResult {
  switch (item.type) {
    case "Product":
      return mapProduct(item.value, context);
    case "Page":
      return mapPage(item.value, context);
    case "Article":
      return mapArticle(item.value, context);
    case "ShopPolicy":
      return mapShopPolicy(item.value, context);
    case "Metaobject":
      return mapMetaobject(item.value, context);
  }
}
