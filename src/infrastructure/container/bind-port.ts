import type { ContainerModuleLoadOptions, Newable, ResolutionContext } from 'inversify';
import type { Token } from '../../application/di-token.js';

type Bind = ContainerModuleLoadOptions['bind'];

/** Reads a port from the container with the type its token carries. */
export type PortGetter = <T>(token: Token<T>) => T;

/**
 * Typed bindings. inversify's own `bind(symbol)` accepts any value for any symbol (`bind(TOKEN_VERIFIER)
 * .toConstantValue(42)` compiles); these take the token's type, so a wrong binding is a compile error.
 */
export const portBinder = (bind: Bind) => ({
  /** Binds a ready instance. */
  constant<T>(token: Token<T>, value: T): void {
    bind<T>(token).toConstantValue(value);
  },
  /** Binds a singleton of an adapter class whose constructor inversify fills from its `@inject` decorators. */
  adapter<T>(token: Token<T>, implementation: Newable<T>): void {
    bind<T>(token).to(implementation).inSingletonScope();
  },
  /** Binds a singleton built on first use from other bindings. */
  singleton<T>(token: Token<T>, make: (get: PortGetter) => T): void {
    bind<T>(token)
      .toDynamicValue((context: ResolutionContext) => make((dependency) => context.get(dependency)))
      .inSingletonScope();
  },
});
