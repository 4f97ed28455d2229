// ESLint 9's flat config: the recommended rules for JavaScript files, and
// typescript-eslint's (its parser, no type information) for TypeScript.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default [
  {
    files: ["**/*.js", "**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "module" },
  },
  ...tseslint.configs.recommended.map((c) => ({ ...c, files: ["**/*.ts"] })),
];
