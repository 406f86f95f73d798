/** `turnloop/dbos`: durable sessions on DBOS Transact and Postgres (`@dbos-inc/dbos-sdk`, an optional peer). */
export {
  launchDbosSessions, migrateDbosDatabase, dbosApplicationVersion, sessionQueue,
  type DbosSessions, type DbosSessionsOptions, type FleetOptions, type SessionOptions,
} from './dbos-sessions.ts';
export { connectFleet, type FleetClient } from './fleet-client.ts';
export { ExecutorIdTakenError } from './fleet-registry.ts';
export { startTempPostgres, findPostgresBin, PostgresNotFoundError, type TempPostgres } from './temp-postgres.ts';
export { DbosUnavailableError } from './load-dbos.ts';
