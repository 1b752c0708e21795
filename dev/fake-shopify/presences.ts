/**
 * Where the shop sells, as Shopify Markets models it (API 2026-10): the shop's locales
 * (`shopLocales`), its domains, its markets (name, handle, status, countries, currency) and its
 * web presences (`webPresences`: a domain or a subfolder of the primary domain, a default locale and
 * alternate ones served at `/<locale>` subfolders, the markets it serves). The sample shop sells
 * on three storefront URLs: the primary domain in English, a German alternate at `/de` of the
 * same domain, and a French market on a domain of its own (`<name>.fr`) in EUR.
 *
 * The merchant's changes go through Shopify's mutations (`shopLocaleEnable|Update|Disable`,
 * `webPresenceCreate|Update|Delete`, `marketUpdate`) and send the webhooks Shopify has topics
 * for (locales/*, markets/*, domains/*); a web presence's own change has no topic.
 */
import { GraphQLError } from "graphql";
import { connection, type ConnectionArgs } from "./connection";
import { gid, parseGid } from "./gid";
import type { Json } from "./store";

export interface ShopLocaleRecord {
  locale: string;
  primary: boolean;
  published: boolean;
}

export interface DomainRecord {
  id: number;
  host: string;
}

export interface MarketRecord {
  id: number;
  name: string;
  handle: string;
  status: "ACTIVE" | "DRAFT";
  currencyCode: string;
  localCurrencies: boolean;
  /** ISO 3166 country codes of the market's region condition. */
  countries: string[];
}

export interface WebPresenceRecord {
  id: number;
  /** null: a subfolder of the primary domain. */
  domainId: number | null;
  subfolderSuffix: string | null;
  defaultLocale: string;
  alternateLocales: string[];
  marketIds: number[];
}

export interface PresencesOptions {
  /** The primary domain's record id (the Domain gid's number) and its host, which can change. */
  primaryDomainId: number;
  primaryHost: () => string;
  shopCurrency: string;
  /** false: only the primary domain in English, one market (a shop that never set up Markets). */
  sample: boolean;
  /** `Market.catalogs` (market-pricing.ts); none when not given. */
  catalogsOf?: (marketId: number) => (args: ConnectionArgs) => unknown;
}

/** What a webhook needs: topic and body (the app reads nothing of these bodies but the topic). */
export interface PresenceEvent {
  topic: string;
  payload: Json;
}

const READ_MARKETS =
  "`read_markets` for queries and both `read_markets` as well as `write_markets` for mutations.";
const LOCALES_READ = "`read_locales` access scope or `read_markets_home` access scope.";
const LOCALES_WRITE = "`write_locales` access scope.";

const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

/** The locale's English name; undefined for a tag no language has (`xx`, `!!`). */
function languageName(locale: string): string | undefined {
  try {
    const name = languageNames.of(locale);
    return name && name !== locale ? name : undefined;
  } catch {
    return undefined;
  }
}
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
const currencyNames = new Intl.DisplayNames(["en"], { type: "currency" });

/** The currency's English name; its code for one `Intl` does not know (Shopify's `USDC`). */
function currencyName(code: string): string {
  try {
    return currencyNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function accessDenied(field: string, requiredAccess: string): GraphQLError {
  return new GraphQLError(`Access denied for ${field} field. Required access: ${requiredAccess}`, {
    extensions: { code: "ACCESS_DENIED", requiredAccess },
  });
}

function userError(field: string[], message: string, code: string): Json {
  return { __typename: "MarketUserError", field, message, code };
}

export class PresenceStore {
  locales: ShopLocaleRecord[] = [];
  domains: DomainRecord[] = [];
  markets: MarketRecord[] = [];
  presences: WebPresenceRecord[] = [];
  #nextId = 1;

  constructor(private readonly options: PresencesOptions) {
    this.locales.push({ locale: "en", primary: true, published: true });
    const international = this.#market("International", "international", options.shopCurrency, [
      "DE",
      "AT",
      "GB",
      "US",
    ]);
    this.presences.push({
      id: this.#id(),
      domainId: options.primaryDomainId,
      subfolderSuffix: null,
      defaultLocale: "en",
      alternateLocales: [],
      marketIds: [international.id],
    });
    if (!options.sample) return;
    this.locales.push({ locale: "de", primary: false, published: true });
    this.locales.push({ locale: "fr", primary: false, published: true });
    this.presences[0]!.alternateLocales.push("de");
    const france = this.#market("France", "fr", "EUR", ["FR"]);
    const frenchDomain = this.addDomain(`${options.primaryHost().split(".")[0]}.fr`);
    this.presences.push({
      id: this.#id(),
      domainId: frenchDomain.id,
      subfolderSuffix: null,
      defaultLocale: "fr",
      alternateLocales: [],
      marketIds: [france.id],
    });
  }

  #id(): number {
    return 77_300_000_000 + this.#nextId++;
  }

  #market(name: string, handle: string, currencyCode: string, countries: string[]): MarketRecord {
    const market: MarketRecord = {
      id: this.#id(),
      name,
      handle,
      status: "ACTIVE",
      currencyCode,
      localCurrencies: false,
      countries,
    };
    this.markets.push(market);
    return market;
  }

  domainHost(id: number): string | undefined {
    if (id === this.options.primaryDomainId) return this.options.primaryHost();
    return this.domains.find((domain) => domain.id === id)?.host;
  }

  /** A domain connected to the shop (Settings → Domains); it serves nothing until a web presence uses it. */
  addDomain(host: string): DomainRecord {
    const domain = { id: this.#id(), host };
    this.domains.push(domain);
    return domain;
  }

  locale(locale: string): ShopLocaleRecord | undefined {
    return this.locales.find((record) => record.locale === locale);
  }

  // ——— Views ———

  shopLocaleView(record: ShopLocaleRecord): Json {
    return {
      __typename: "ShopLocale",
      locale: record.locale,
      name: languageName(record.locale) ?? record.locale,
      primary: record.primary,
      published: record.published,
      marketWebPresences: () =>
        this.presences
          .filter(
            (p) => p.defaultLocale === record.locale || p.alternateLocales.includes(record.locale),
          )
          .map((p) => this.presenceView(p)),
    };
  }

  domainView(id: number): Json | null {
    const host = this.domainHost(id);
    if (host === undefined) return null;
    const presence = this.presences.find((p) => p.domainId === id);
    return {
      __typename: "Domain",
      id: gid("Domain", id),
      host,
      url: `https://${host}`,
      sslEnabled: true,
      localization: presence
        ? {
            __typename: "DomainLocalization",
            defaultLocale: presence.defaultLocale,
            alternateLocales: presence.alternateLocales,
          }
        : null,
      marketWebPresence: () => (presence ? this.presenceView(presence) : null),
    };
  }

  /**
   * A presence's URL per locale: a domain's default at its root and alternates at `/<locale>/`;
   * a subfolder presence at `/<locale>-<suffix>/` of the primary domain, as Shopify builds them.
   */
  rootUrls(presence: WebPresenceRecord): { locale: string; url: string }[] {
    const host = this.domainHost(presence.domainId ?? this.options.primaryDomainId);
    const base = `https://${host}`;
    const path = (locale: string, isDefault: boolean) => {
      if (presence.subfolderSuffix) return `/${locale}-${presence.subfolderSuffix}/`;
      return isDefault ? "/" : `/${locale}/`;
    };
    return [
      { locale: presence.defaultLocale, url: `${base}${path(presence.defaultLocale, true)}` },
      ...presence.alternateLocales.map((locale) => ({
        locale,
        url: `${base}${path(locale, false)}`,
      })),
    ];
  }

  presenceView(presence: WebPresenceRecord): Json {
    const localeView = (locale: string) =>
      this.shopLocaleView(this.locale(locale) ?? { locale, primary: false, published: false });
    const markets = () => this.markets.filter((m) => presence.marketIds.includes(m.id));
    return {
      __typename: "MarketWebPresence",
      id: gid("MarketWebPresence", presence.id),
      domain: presence.domainId === null ? null : this.domainView(presence.domainId),
      subfolderSuffix: presence.subfolderSuffix,
      defaultLocale: localeView(presence.defaultLocale),
      alternateLocales: presence.alternateLocales.map(localeView),
      rootUrls: this.rootUrls(presence).map((root) => ({
        __typename: "MarketWebPresenceRootUrl",
        ...root,
      })),
      markets: (args: ConnectionArgs) =>
        connection(markets(), args, (market) => this.marketView(market)),
      market: () => {
        const first = markets()[0];
        return first ? this.marketView(first) : null;
      },
    };
  }

  marketView(market: MarketRecord): Json {
    const currency = (code: string) => ({
      __typename: "CurrencySetting",
      currencyCode: code,
      currencyName: currencyName(code),
      manualRate: null,
      rateUpdatedAt: null,
    });
    const regions = (args: ConnectionArgs) =>
      connection(market.countries, args, (code) => ({
        __typename: "MarketRegionCountry",
        id: gid("MarketRegionCountry", `${market.id}${code.charCodeAt(0)}${code.charCodeAt(1)}`),
        code,
        name: regionNames.of(code) ?? code,
        currency: currency(market.currencyCode),
      }));
    const presences = () => this.presences.filter((p) => p.marketIds.includes(market.id));
    return {
      __typename: "Market",
      id: gid("Market", market.id),
      name: market.name,
      handle: market.handle,
      status: market.status,
      enabled: market.status === "ACTIVE",
      type: "REGION",
      primary: false,
      currencySettings: {
        __typename: "MarketCurrencySettings",
        baseCurrency: currency(market.currencyCode),
        localCurrencies: market.localCurrencies,
        // The fake converts to the minor unit, without Shopify's per-currency endings (market-pricing.ts).
        roundingEnabled: false,
      },
      conditions: {
        __typename: "MarketConditions",
        conditionTypes: ["REGION"],
        regionsCondition: { __typename: "RegionsCondition", regions },
      },
      regions,
      catalogs: (args: ConnectionArgs) =>
        this.options.catalogsOf?.(market.id)(args) ?? connection([], args, () => ({})),
      webPresences: (args: ConnectionArgs) =>
        connection(presences(), args, (p) => this.presenceView(p)),
      webPresence: () => {
        const first = presences()[0];
        return first ? this.presenceView(first) : null;
      },
    };
  }

  /** Markets, web presences and domains by gid (null when there is none). */
  node(id: string): Json | null {
    const parsed = parseGid(id);
    const number = Number(parsed?.id);
    if (parsed?.type === "Market") {
      const market = this.markets.find((m) => m.id === number);
      return market ? this.marketView(market) : null;
    }
    if (parsed?.type === "MarketWebPresence") {
      const presence = this.presences.find((p) => p.id === number);
      return presence ? this.presenceView(presence) : null;
    }
    if (parsed?.type === "Domain") return this.domainView(number);
    return null;
  }

  // ——— The Admin API ———

  /** The root fields; `scopesOf(context)` are the asking token's scopes. */
  queries(scopesOf: (context: unknown) => readonly string[]): Json {
    const need = (context: unknown, field: string, required: string, ...any: string[]) => {
      const granted = scopesOf(context);
      if (!any.some((scope) => granted.includes(scope))) throw accessDenied(field, required);
    };
    return {
      webPresences: (args: ConnectionArgs, context: unknown) => {
        need(context, "webPresences", READ_MARKETS, "read_markets", "write_markets");
        return connection(this.presences, args, (p) => this.presenceView(p));
      },
      markets: (args: ConnectionArgs & { type?: string | null }, context: unknown) => {
        need(context, "markets", READ_MARKETS, "read_markets", "write_markets");
        const list = args.type && args.type !== "REGION" ? [] : this.markets;
        return connection(list, args, (m) => this.marketView(m));
      },
      market: ({ id }: { id: string }, context: unknown) => {
        need(context, "market", READ_MARKETS, "read_markets", "write_markets");
        return parseGid(id)?.type === "Market" ? this.node(id) : null;
      },
      shopLocales: ({ published }: { published?: boolean | null }, context: unknown) => {
        need(
          context,
          "shopLocales",
          LOCALES_READ,
          "read_locales",
          "write_locales",
          "read_markets_home",
        );
        // `published: Boolean = false`: true keeps only the published ones, false lists all.
        return this.locales
          .filter((record) => published !== true || record.published)
          .map((record) => this.shopLocaleView(record));
      },
    };
  }

  /**
   * The mutations a merchant's change makes; `emit` sends the webhook Shopify sends for it (none
   * for web presences: no topic exists).
   */
  mutations(
    scopesOf: (context: unknown) => readonly string[],
    emit: (event: PresenceEvent) => void,
  ): Json {
    const need = (context: unknown, field: string, required: string, ...all: string[]) => {
      const granted = scopesOf(context);
      if (!all.every((scope) => granted.includes(scope))) throw accessDenied(field, required);
    };
    const presenceIds = (ids: string[] | null | undefined) =>
      (ids ?? []).map((id) => Number(parseGid(id)?.id));
    const localeError = (field: string[], message: string) => ({
      __typename: "UserError",
      field,
      message,
    });
    return {
      shopLocaleEnable: (
        args: { locale: string; marketWebPresenceIds?: string[] | null },
        context: unknown,
      ) => {
        need(context, "shopLocaleEnable", LOCALES_WRITE, "write_locales");
        if (this.locale(args.locale)) {
          return {
            shopLocale: null,
            userErrors: [localeError(["locale"], `Locale '${args.locale}' is already enabled`)],
          };
        }
        if (languageName(args.locale) === undefined) {
          return {
            shopLocale: null,
            userErrors: [localeError(["locale"], `Locale '${args.locale}' is invalid`)],
          };
        }
        const record = { locale: args.locale, primary: false, published: false };
        this.locales.push(record);
        this.#attachLocale(args.locale, presenceIds(args.marketWebPresenceIds));
        emit({ topic: "locales/create", payload: localePayload(record) });
        return { shopLocale: this.shopLocaleView(record), userErrors: [] };
      },
      shopLocaleUpdate: (
        args: {
          locale: string;
          shopLocale: { published?: boolean | null; marketWebPresenceIds?: string[] | null };
        },
        context: unknown,
      ) => {
        need(context, "shopLocaleUpdate", LOCALES_WRITE, "write_locales");
        const record = this.locale(args.locale);
        if (!record) {
          return {
            shopLocale: null,
            userErrors: [localeError(["locale"], `Locale '${args.locale}' is not enabled`)],
          };
        }
        if (typeof args.shopLocale.published === "boolean" && !record.primary) {
          record.published = args.shopLocale.published;
        }
        if (args.shopLocale.marketWebPresenceIds) {
          for (const presence of this.presences) {
            presence.alternateLocales = presence.alternateLocales.filter(
              (l) => l !== record.locale,
            );
          }
          this.#attachLocale(record.locale, presenceIds(args.shopLocale.marketWebPresenceIds));
        }
        emit({ topic: "locales/update", payload: localePayload(record) });
        return { shopLocale: this.shopLocaleView(record), userErrors: [] };
      },
      shopLocaleDisable: ({ locale }: { locale: string }, context: unknown) => {
        need(context, "shopLocaleDisable", LOCALES_WRITE, "write_locales");
        const record = this.locale(locale);
        const inUse = this.presences.some((p) => p.defaultLocale === locale);
        if (!record || record.primary || inUse) {
          const why = !record
            ? `Locale '${locale}' is not enabled`
            : `Locale '${locale}' is the default of a web presence or the shop`;
          return { locale: null, userErrors: [localeError(["locale"], why)] };
        }
        this.locales = this.locales.filter((l) => l !== record);
        for (const presence of this.presences) {
          presence.alternateLocales = presence.alternateLocales.filter((l) => l !== locale);
        }
        emit({ topic: "locales/destroy", payload: { locale } });
        return { locale, userErrors: [] };
      },
      webPresenceCreate: ({ input }: { input: WebPresenceInput }, context: unknown) => {
        need(context, "webPresenceCreate", READ_MARKETS, "read_markets", "write_markets");
        const domainId = input.domainId ? Number(parseGid(input.domainId)?.id) : null;
        const problem = this.#presenceProblem(input, domainId, null);
        if (problem) return { webPresence: null, userErrors: [problem] };
        const presence: WebPresenceRecord = {
          id: this.#id(),
          domainId,
          subfolderSuffix: domainId === null ? (input.subfolderSuffix ?? null) : null,
          defaultLocale: input.defaultLocale ?? "en",
          alternateLocales: input.alternateLocales ?? [],
          marketIds: [],
        };
        this.presences.push(presence);
        return { webPresence: this.presenceView(presence), userErrors: [] };
      },
      webPresenceUpdate: (
        { id, input }: { id: string; input: WebPresenceInput },
        context: unknown,
      ) => {
        need(context, "webPresenceUpdate", READ_MARKETS, "read_markets", "write_markets");
        const presence = this.presences.find((p) => gid("MarketWebPresence", p.id) === id);
        if (!presence) {
          return {
            webPresence: null,
            userErrors: [
              userError(["id"], "The web presence wasn't found.", "WEB_PRESENCE_NOT_FOUND"),
            ],
          };
        }
        const problem = this.#presenceProblem(input, presence.domainId, presence);
        if (problem) return { webPresence: null, userErrors: [problem] };
        if (input.defaultLocale) presence.defaultLocale = input.defaultLocale;
        if (input.alternateLocales) presence.alternateLocales = input.alternateLocales;
        if (input.subfolderSuffix && presence.domainId === null) {
          presence.subfolderSuffix = input.subfolderSuffix;
        }
        return { webPresence: this.presenceView(presence), userErrors: [] };
      },
      webPresenceDelete: ({ id }: { id: string }, context: unknown) => {
        need(context, "webPresenceDelete", READ_MARKETS, "read_markets", "write_markets");
        const presence = this.presences.find((p) => gid("MarketWebPresence", p.id) === id);
        if (!presence) {
          return {
            deletedId: null,
            userErrors: [
              userError(["id"], "The web presence wasn't found.", "WEB_PRESENCE_NOT_FOUND"),
            ],
          };
        }
        if (presence.domainId === this.options.primaryDomainId) {
          return {
            deletedId: null,
            userErrors: [
              userError(
                ["id"],
                "The shop must have a web presence on its primary domain.",
                "SHOP_MUST_HAVE_PRIMARY_DOMAIN_WEB_PRESENCE",
              ),
            ],
          };
        }
        this.presences = this.presences.filter((p) => p !== presence);
        return { deletedId: id, userErrors: [] };
      },
      marketUpdate: ({ id, input }: { id: string; input: MarketInput }, context: unknown) => {
        need(context, "marketUpdate", READ_MARKETS, "read_markets", "write_markets");
        const market = this.markets.find((m) => gid("Market", m.id) === id);
        if (!market) {
          return {
            market: null,
            userErrors: [userError(["id"], "The market wasn't found.", "MARKET_NOT_FOUND")],
          };
        }
        if (input.name) market.name = input.name;
        if (input.handle) market.handle = input.handle;
        if (input.status) market.status = input.status;
        if (input.currencySettings?.baseCurrency) {
          market.currencyCode = input.currencySettings.baseCurrency;
        }
        if (typeof input.currencySettings?.localCurrencies === "boolean") {
          market.localCurrencies = input.currencySettings.localCurrencies;
        }
        for (const added of presenceIds(input.webPresencesToAdd)) {
          const presence = this.presences.find((p) => p.id === added);
          if (presence && !presence.marketIds.includes(market.id))
            presence.marketIds.push(market.id);
        }
        for (const removed of presenceIds(input.webPresencesToDelete)) {
          const presence = this.presences.find((p) => p.id === removed);
          if (presence) presence.marketIds = presence.marketIds.filter((m) => m !== market.id);
        }
        emit({ topic: "markets/update", payload: marketPayload(market) });
        return { market: this.marketView(market), userErrors: [] };
      },
    };
  }

  #attachLocale(locale: string, presenceIds: number[]): void {
    for (const presence of this.presences) {
      if (!presenceIds.includes(presence.id)) continue;
      if (presence.defaultLocale !== locale && !presence.alternateLocales.includes(locale)) {
        presence.alternateLocales.push(locale);
      }
    }
  }

  #presenceProblem(
    input: WebPresenceInput,
    domainId: number | null,
    current: WebPresenceRecord | null,
  ): Json | null {
    const locales = [input.defaultLocale, ...(input.alternateLocales ?? [])].filter(
      (locale): locale is string => typeof locale === "string",
    );
    for (const locale of locales) {
      if (!this.locale(locale)) {
        return userError(["input"], `The locale '${locale}' isn't enabled.`, "DISABLED_LANGUAGE");
      }
    }
    if (current) return null;
    if (domainId !== null) {
      if (this.domainHost(domainId) === undefined) {
        return userError(["input", "domainId"], "The domain wasn't found.", "DOMAIN_NOT_FOUND");
      }
      if (this.presences.some((p) => p.domainId === domainId)) {
        return userError(["input", "domainId"], "The domain is already in use.", "TAKEN");
      }
      return null;
    }
    const suffix = input.subfolderSuffix ?? "";
    if (!/^[a-z]{2,}$/i.test(suffix)) {
      return userError(
        ["input", "subfolderSuffix"],
        "A web presence needs a domain or a subfolder suffix of at least two letters.",
        "REQUIRES_DOMAIN_OR_SUBFOLDER",
      );
    }
    return null;
  }
}

interface WebPresenceInput {
  defaultLocale?: string | null;
  alternateLocales?: string[] | null;
  domainId?: string | null;
  subfolderSuffix?: string | null;
}

interface MarketInput {
  name?: string | null;
  handle?: string | null;
  status?: "ACTIVE" | "DRAFT" | null;
  currencySettings?: { baseCurrency?: string | null; localCurrencies?: boolean | null } | null;
  webPresencesToAdd?: string[] | null;
  webPresencesToDelete?: string[] | null;
}

/** locales/create and locales/update: the locale and whether it is published. */
function localePayload(record: ShopLocaleRecord): Json {
  return { locale: record.locale, published: record.published };
}

/** markets/*: the market's id, name and whether it is enabled, with its countries. */
export function marketPayload(market: MarketRecord): Json {
  return {
    id: market.id,
    name: market.name,
    enabled: market.status === "ACTIVE",
    regions: market.countries.map((code) => ({ country_code: code })),
  };
}

/** domains/*: the REST Domain. */
export function domainPayload(domain: DomainRecord, presence?: WebPresenceRecord): Json {
  return {
    id: domain.id,
    host: domain.host,
    ssl_enabled: true,
    localization: {
      country: null,
      default_locale: presence?.defaultLocale ?? null,
      alternate_locales: presence?.alternateLocales ?? [],
    },
  };
}
