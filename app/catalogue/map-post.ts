import { articleServiceId, pageServiceId } from "./gid";
import { htmlToPlainText, makeExcerpt } from "./html-text";
import type { IndexPost, MapContext, PostMapResult } from "./index-types";
import type { ShopifyArticle, ShopifyPage } from "./shopify-types";
import { articleUrl, pageUrl } from "./storefront-url";

/** The `status` sent for every indexed post (only published pages and articles are indexed). */
export const INDEXED_POST_STATUS = "published";

export function isIndexablePost(post: Pick<ShopifyPage | ShopifyArticle, "isPublished">): boolean {
  return post.isPublished === true;
}

export function mapPage(page: ShopifyPage, context: MapContext): PostMapResult {
  const id = pageServiceId(page.id);
  if (!isIndexablePost(page)) return { kind: "post", id, indexable: false, reason: "unpublished" };
  const content = htmlToPlainText(page.body);
  const item: IndexPost = {
    id,
    title: page.title.trim(),
    content,
    excerpt: makeExcerpt(page.bodySummary?.trim() || content),
    url: pageUrl(context.primaryDomain, page.handle),
    post_type: "page",
    status: INDEXED_POST_STATUS,
    tags: [],
    categories: [],
    source: "shopify",
  };
  if (page.publishedAt) item.published_at = page.publishedAt;
  if (page.updatedAt) item.updated_at = page.updatedAt;
  return { kind: "post", id, indexable: true, item };
}

export function mapArticle(article: ShopifyArticle, context: MapContext): PostMapResult {
  const id = articleServiceId(article.id);
  if (!isIndexablePost(article)) {
    return { kind: "post", id, indexable: false, reason: "unpublished" };
  }
  const content = htmlToPlainText(article.body);
  const summary = htmlToPlainText(article.summary);
  const blogTitle = article.blog?.title?.trim();
  const item: IndexPost = {
    id,
    title: article.title.trim(),
    content,
    excerpt: makeExcerpt(summary || content),
    url: articleUrl(context.primaryDomain, article.blog?.handle ?? "news", article.handle),
    post_type: "article",
    status: INDEXED_POST_STATUS,
    tags: (article.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag !== ""),
    categories: blogTitle ? [blogTitle] : [],
    source: "shopify",
  };
  const author = article.author?.name?.trim();
  if (author) item.author_name = author;
  if (article.image?.url) item.featured_image = article.image.url;
  if (article.publishedAt) item.published_at = article.publishedAt;
  if (article.updatedAt) item.updated_at = article.updatedAt;
  return { kind: "post", id, indexable: true, item };
}
