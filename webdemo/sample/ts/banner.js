// @ts-check
// JavaScript beside the TypeScript pair: the TypeScript server checks it
// (the line above) and ESLint lints it (eslint.config.js), so both have
// something to say about `width`, which is never read.

/**
 * Frames text in a banner of stars.
 * @param {string} text
 * @returns {string}
 */
export function banner(text) {
  const width = text.length + 4;
  const line = '*'.repeat(text.length + 4);
  return `${line}\n* ${text} *\n${line}`;
}

console.log(banner('Hello, Kandev!'));
