/** `turnloop/dbos`: durable sessions on DBOS Transact and Postgres (`@dbos-inc/dbos-sdk`, an optional peer). */
export { launchDbosSessions, migrateDbosDatabase, dbosApplicationVersion, type DbosSessions, type DbosSessionsOptions, type SessionOptions } from './dbos-sessions.ts';
export { startTempPostgres, findPostgresBin, PostgresNotFoundError, type TempPostgres } from './temp-postgres.ts';
export { DbosUnavailableError } from './load-dbos.ts';
