/** A DI token that remembers the type bound to it, so a port and its token are declared together. */
export type Token<T> = symbol & { readonly __port?: T };

export const token = <T>(name: string): Token<T> => Symbol.for(`account-service.${name}`);
