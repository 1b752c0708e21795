import { queryAdmin, type AdminGraphql } from "./admin-graphql";

export const SHOP_INFO_QUERY = `#graphql
  query ShopInfo {
    shop {
      myshopifyDomain
      currencyCode
      primaryDomain {
        host
        url
      }
    }
  }
`;

export interface ShopInfo {
  myshopifyDomain: string;
  primaryDomainHost: string;
  primaryDomainUrl: string;
  currencyCode: string;
}

interface ShopInfoResponse {
  shop: {
    myshopifyDomain: string;
    currencyCode: string;
    primaryDomain: { host: string; url: string };
  };
}

/** The shop's storefront (primary) domain, which names its workspace in the service. */
export async function readShopInfo(admin: AdminGraphql): Promise<ShopInfo> {
  const { shop } = await queryAdmin<ShopInfoResponse>(admin, SHOP_INFO_QUERY);
  return {
    myshopifyDomain: shop.myshopifyDomain,
    primaryDomainHost: shop.primaryDomain.host,
    primaryDomainUrl: shop.primaryDomain.url,
    currencyCode: shop.currencyCode,
  };
}
