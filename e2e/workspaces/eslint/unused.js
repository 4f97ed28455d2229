// @ts-check
// `width` is assigned and never read: ESLint's no-unused-vars reports it.

/** @param {string} text */
export function frame(text) {
  const width = text.length + 4;
  return `[ ${text} ]`;
}
