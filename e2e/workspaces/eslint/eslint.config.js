// ESLint 9's flat config: the recommended rules for JavaScript files.
import js from "@eslint/js";

export default [
  {
    files: ["**/*.js", "**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "module" },
  },
];
