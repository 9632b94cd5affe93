/** Thrown by a repository asked to save a user it never stored: a programming error, not a client error. */
export class UserNotFound extends Error {
  constructor(readonly userId: string) {
    super(`User ${userId} does not exist`);
    this.name = 'UserNotFound';
  }
}
