import { describe, expect, it } from "vitest";
import { mapCatalogueItem } from "../../app/catalogue/map-item";
import { mapArticle, mapPage } from "../../app/catalogue/map-post";
import type { ShopifyArticle, ShopifyPage } from "../../app/catalogue/shopify-types";

const SHOP = { primaryDomain: "shop.example.com" };

function page(overrides: Partial<ShopifyPage> = {}): ShopifyPage {
  return {
    id: "gid://shopify/Page/131092082",
    title: "Terms of Services",
    handle: "tos",
    body: "<p>We make <strong>perfect</strong> stuff, we don&#39;t need a warranty.</p>",
    bodySummary: "We make perfect stuff, we don't need a warranty.",
    isPublished: true,
    createdAt: "2008-07-16T00:00:00Z",
    updatedAt: "2008-07-17T00:00:00Z",
    publishedAt: "2008-07-16T00:00:00Z",
    ...overrides,
  };
}

function article(overrides: Partial<ShopifyArticle> = {}): ShopifyArticle {
  return {
    id: "gid://shopify/Article/131092082",
    title: "get on the train now",
    handle: "get-on-the-train-now",
    body: "<p>Do <em>you</em> have an <strong>IPod</strong> yet?</p>",
    summary: null,
    isPublished: true,
    createdAt: "2008-08-01T00:00:00Z",
    updatedAt: "2008-08-02T00:00:00Z",
    publishedAt: "2008-08-01T00:00:00Z",
    tags: ["Announcing"],
    author: { name: "Dennis" },
    image: { url: "https://cdn.shopify.com/articles/imac.jpg", altText: "iMac" },
    blog: { id: "gid://shopify/Blog/241253187", handle: "apple-blog", title: "Mah Blog" },
    ...overrides,
  };
}

describe("pages", () => {
  it("become posts of type page with a page- id and a /pages/ URL", () => {
    expect(mapPage(page(), SHOP)).toEqual({
      kind: "post",
      id: "page-131092082",
      indexable: true,
      item: {
        id: "page-131092082",
        title: "Terms of Services",
        content: "We make perfect stuff, we don't need a warranty.",
        excerpt: "We make perfect stuff, we don't need a warranty.",
        url: "https://shop.example.com/pages/tos",
        post_type: "page",
        status: "published",
        tags: [],
        categories: [],
        published_at: "2008-07-16T00:00:00Z",
        updated_at: "2008-07-17T00:00:00Z",
        source: "shopify",
      },
    });
  });

  it("are not indexable while hidden", () => {
    expect(mapPage(page({ isPublished: false, publishedAt: null }), SHOP)).toEqual({
      kind: "post",
      id: "page-131092082",
      indexable: false,
      reason: "unpublished",
    });
  });

  it("fall back on the body for the excerpt when Shopify has no summary", () => {
    const result = mapPage(page({ bodySummary: "" }), SHOP);
    expect(result.indexable && result.item.excerpt).toBe(
      "We make perfect stuff, we don't need a warranty.",
    );
  });
});

describe("articles", () => {
  it("become posts of type article with an article- id, the blog in the URL and as category", () => {
    const result = mapArticle(article(), SHOP);
    expect(result).toMatchObject({ kind: "post", id: "article-131092082", indexable: true });
    expect(result.indexable && result.item).toEqual({
      id: "article-131092082",
      title: "get on the train now",
      content: "Do you have an IPod yet?",
      excerpt: "Do you have an IPod yet?",
      url: "https://shop.example.com/blogs/apple-blog/get-on-the-train-now",
      post_type: "article",
      status: "published",
      author_name: "Dennis",
      tags: ["Announcing"],
      categories: ["Mah Blog"],
      featured_image: "https://cdn.shopify.com/articles/imac.jpg",
      published_at: "2008-08-01T00:00:00Z",
      updated_at: "2008-08-02T00:00:00Z",
      source: "shopify",
    });
  });

  it("use the summary for the excerpt when there is one", () => {
    const result = mapArticle(article({ summary: "<p>Short &amp; sweet</p>" }), SHOP);
    expect(result.indexable && result.item.excerpt).toBe("Short & sweet");
  });

  it("leave out author and image when missing", () => {
    const result = mapArticle(article({ author: null, image: null }), SHOP);
    expect(result.indexable && result.item).not.toHaveProperty("author_name");
    expect(result.indexable && result.item).not.toHaveProperty("featured_image");
  });

  it("are not indexable while hidden", () => {
    expect(mapArticle(article({ isPublished: false }), SHOP)).toEqual({
      kind: "post",
      id: "article-131092082",
      indexable: false,
      reason: "unpublished",
    });
  });

  it("never share an id with a page of the same number", () => {
    const pageResult = mapCatalogueItem({ type: "Page", value: page() }, SHOP);
    const articleResult = mapCatalogueItem({ type: "Article", value: article() }, SHOP);
    expect(pageResult.id).not.toBe(articleResult.id);
  });
});
