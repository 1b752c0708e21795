import { queryAdmin, type AdminGraphql } from "./admin-graphql";
import { SHOP_QUERY, type ShopDomainsData } from "../catalogue/queries";

export interface ShopInfo {
  myshopifyDomain: string;
  primaryDomainHost: string;
  primaryDomainUrl: string;
  currencyCode: string;
  /** The shop's contact address: where Inbox notifications go. */
  email: string | null;
}

/** The shop's storefront (primary) domain, which names its workspace in the service. */
export async function readShopInfo(admin: AdminGraphql): Promise<ShopInfo> {
  const { shop } = await queryAdmin<ShopDomainsData>(admin, SHOP_QUERY);
  return {
    myshopifyDomain: shop.myshopifyDomain,
    primaryDomainHost: shop.primaryDomain.host,
    primaryDomainUrl: shop.primaryDomain.url,
    currencyCode: shop.currencyCode,
    email: shop.email,
  };
}
