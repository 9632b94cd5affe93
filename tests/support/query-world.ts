import { GetAccountActivityHandler } from '../../src/application/queries/get-account-activity.handler.js';
import { GetCurrentUserHandler } from '../../src/application/queries/get-current-user.handler.js';
import { EventLogActivityReadModel } from '../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { RepositoryUserReadModel } from '../../src/infrastructure/read-model/repository-user-read-model.js';
import { inMemoryWorld } from './in-memory-world.js';

/** The in-memory world plus the query side over the same store. */
export function queryWorld() {
  const world = inMemoryWorld();
  const userReadModel = new RepositoryUserReadModel(world.users);
  const activityReadModel = new EventLogActivityReadModel(world.events);
  return {
    ...world,
    getCurrentUser: new GetCurrentUserHandler(userReadModel),
    getActivity: new GetAccountActivityHandler(userReadModel, activityReadModel),
  };
}
