import { twice } from './a';

export const four: number = twice(2);
