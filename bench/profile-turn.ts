import { cleanUpRecordings, turnloopQuerySystem, turnloopRecordingSystem } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';
const sys = process.env.SYS === 'rec' ? turnloopRecordingSystem : turnloopQuerySystem;
const [turns = 10, runs = 300, history = 10] = process.argv.slice(2).map(Number);
for (let i = 0; i < runs; i++) await sys.run({ turns, history }, new TurnProbe());
cleanUpRecordings();
