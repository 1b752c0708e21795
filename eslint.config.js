import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      ".cache/",
      "extensions/chat-widget/assets/",
      "test-artifacts/",
      "test/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  // The house rules of docs/architecture.md, as failing checks.
  {
    files: ["app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/dev/**"],
              message: "app/ reaches the emulators only through configuration.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/index-service/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@shopify/*", "**/catalog/**", "**/sync/**", "**/models/**", "**/dev/**"],
              message:
                "index-service/ is the service's client: it knows nothing of Shopify or the catalogue.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/catalog/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/index-service/**", "**/sync/**", "**/dev/**"],
              message: "catalog/ is the Shopify side: it knows nothing of the service's client.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/models/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/sync/**", "**/routes/**", "**/dev/**"],
              message: "models/ is database access by table: it knows nothing of sync/ or routes/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["widget/**"],
    ignores: ["widget/build.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "node:*",
                "@shopify/*",
                "@prisma/*",
                "@remix-run/*",
                "**/dev/**",
                "**/*.server",
              ],
              message:
                "widget/ runs in shoppers' browsers: no Node, no server code; only the service's pure NDJSON reader and event types.",
            },
            {
              regex: "^(\\.\\./)+app/(?!index-service/(ndjson|chat-events)$)",
              message:
                "widget/ may import from app/ only the service's pure NDJSON reader and event types.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
