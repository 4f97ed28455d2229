// ESLint 9's flat config: the recommended JavaScript rules for the
// sample's JavaScript files. TypeScript files are not linted (that would
// take typescript-eslint and its parser); the TypeScript server checks them.
import js from "@eslint/js";

export default [
  {
    files: ["**/*.js", "**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: {
      sourceType: "module",
      globals: { console: "readonly" },
    },
  },
];
