// `width` is assigned and never read: the TypeScript server and ESLint
// (typescript-eslint's no-unused-vars) both say so, each with its own fix.
export function frame(text: string): string {
  const width = text.length + 4;
  return `[ ${text} ]`;
}

export function shout(text: string): string {
  return text.toUpperCase();
}

export const loud = shout(frame("hello"));
