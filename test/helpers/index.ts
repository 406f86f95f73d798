/** Shared test helpers: builders, a scripted world and `drive()` for the pure reducer. */
export * from './builders.ts';
export * from './deep-freeze.ts';
export * from './drive.ts';
export * from './params.ts';
export * from './script.ts';
export { ScriptedWorld } from './scripted-world.ts';
