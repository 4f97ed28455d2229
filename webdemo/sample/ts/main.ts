import { greet, Greeter } from './greet';

const message: string = greet('Kandev');
const greeter = new Greeter('> ');
console.log(message, greeter.greet('world'));
