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
              group: [
                "@shopify/*",
                "**/catalogue/**",
                "**/shopify/**",
                "**/shop/**",
                "**/sync/**",
                "**/models/**",
                "**/dev/**",
              ],
              message:
                "index-service/ is the service's client: it knows nothing of Shopify or the catalogue.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/catalogue/**", "app/shopify/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/index-service/**", "**/sync/**", "**/shop/**", "**/dev/**"],
              message:
                "catalogue/ and shopify/ are the Shopify side: they know nothing of the service's client.",
            },
          ],
        },
      ],
    },
  },
  {
    // A rule of its own name, so that it adds to the folder rules above instead of replacing them.
    files: ["app/**"],
    ignores: ["app/models/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "**/models/db.server",
                "@prisma/client",
                "@prisma/adapter-*",
                "@libsql/*",
                "pg",
                "@shopify/shopify-app-session-storage-prisma",
              ],
              allowTypeImports: true,
              message:
                "Only app/models/ talks to the database: add a model function there (docs/decisions/0015-one-home-per-flow.md).",
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
              group: ["**/sync/**", "**/shop/**", "**/routes/**", "**/dev/**"],
              message:
                "models/ is database access by table: it knows nothing of sync/, shop/ or routes/.",
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
    files: ["bench/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/test/**"],
              message: "bench/ shares set-up with the tests through testkit/, never test/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["test/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/bench/**"],
              message: "test/ shares set-up with the benchmarks through testkit/, never bench/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["testkit/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/test/**", "**/bench/**"],
              message: "testkit/ serves test/ and bench/ and imports neither.",
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
