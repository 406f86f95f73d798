/** Scenarios: the JSON format of a scripted environment, its loader and the simulation that runs one. */
export { loadScenario, parseScenario, ScenarioFileError } from './load-scenario.ts';
export { simulateScenario, SIMULATION_EPOCH, type SimulateOptions, type SimulationResult } from './simulate.ts';
export { scenarioSchema, type Scenario, type ScenarioInput, type ScenarioExpect } from './scenario-schema.ts';
export { scenarioJsonSchema } from './scenario-json-schema.ts';
export { isFailureTerminal, outcomeMismatches, FAILURE_TERMINALS } from './check-outcome.ts';
