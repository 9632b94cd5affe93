import type { Container, ContainerModuleLoadOptions, ResolutionContext } from 'inversify';
import type { Token } from '../../application/di-token.js';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';

type Bind = ContainerModuleLoadOptions['bind'];
type IsBound = ContainerModuleLoadOptions['isBound'];

/** Reads a binding from the container with the type its token carries. */
export type PortGetter = <T>(token: Token<T>) => T;

/** Binds `token` to a singleton that `make` builds on first use, reading what it needs through `get`. */
export type BindPort = <T>(token: Token<T>, make: (get: PortGetter) => T) => void;

/**
 * The one binding style of the service: `bindPort(TOKEN, (get) => new Adapter(get(OTHER)))`. A token bound already
 * (by the overrides module `compose` loads first: a test's fakes) is left as it is. inversify's own
 * `bind(symbol)` accepts any value for any symbol (`bind(TOKEN_VERIFIER).toConstantValue(42)` compiles) and its
 * `@inject` decorators are not checked against the constructor's types; here both the token's type and the
 * constructor's arguments are checked by the compiler, so a wrong binding does not compile.
 */
export const portBinder =
  (bind: Bind, isBound: IsBound = () => false): BindPort =>
  <T>(token: Token<T>, make: (get: PortGetter) => T): void => {
    if (isBound(token)) return;
    bind<T>(token)
      .toDynamicValue((context: ResolutionContext) => make((dependency) => context.get(dependency)))
      .inSingletonScope();
  };

/** Reads from a loaded container with the types the tokens carry. */
export const portGetter =
  (container: Container): PortGetter =>
  <T>(token: Token<T>): T =>
    container.get<T>(token);

/** Every port of the core, by the name use cases know it by, resolved by its token: what the registries give handlers. */
export const corePorts = (get: PortGetter): Ports =>
  Object.fromEntries(Object.entries(PORT_TOKENS).map(([name, port]: [string, Token<unknown>]) => [name, get(port)])) as unknown as Ports;
