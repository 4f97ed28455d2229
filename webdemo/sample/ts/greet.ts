/** Returns a friendly greeting for name. */
export function greet(name: string, punctuation: string = '!'): string {
  return `Hello, ${name}${punctuation}`;
}

/** Greets with a fixed prefix. */
export class Greeter {
  constructor(private readonly prefix: string) {}

  greet(name: string): string {
    return this.prefix + greet(name);
  }
}
