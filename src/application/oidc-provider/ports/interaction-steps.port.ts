import type { OpenedSession } from '../../shared/auth-result.js';

/** What a page of the OpenID provider knows of the interaction it shows (the engine's details of it). */
export interface InteractionView {
  readonly uid: string;
  /** `login`: nobody is signed in at the pages (or the app asked again); `consent`: the app asks for scopes not granted yet. */
  readonly prompt: string;
  readonly clientName: string;
  /** An app of the service's own: it asks no consent. */
  readonly firstParty: boolean;
  /** The scopes the app asks for. */
  readonly scopes: readonly string[];
  /** The APIs (RFC 8707 resources) the app asks tokens for: the scopes not OpenID's are theirs. */
  readonly resources: readonly string[];
  /** Who is signed in at the pages, once someone is. */
  readonly accountId: string | null;
}

/**
 * The engine's side of the pages: the interaction, and each way it ends, on the request and response of the page
 * (`Request` and `Response`: the HTTP server's own, which the engine answers on).
 */
export interface InteractionSteps<Request, Response> {
  details(request: Request, response: Response): Promise<InteractionView>;
  /**
   * The person proved who they are, and the service's own sign-in opened a session for it (`amr`: how); the engine
   * goes on (to consent, or back to the app), its session at the pages tied to that one.
   */
  signedIn(request: Request, response: Response, session: OpenedSession): Promise<void>;
  /** The person allows what the app asks (every scope and claim the prompt lists); back to the app with a code. */
  allowed(request: Request, response: Response): Promise<void>;
  /** The person refused: back to the app with `error=access_denied`. */
  denied(request: Request, response: Response): Promise<void>;
}
