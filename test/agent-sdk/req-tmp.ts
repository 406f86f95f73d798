import { runProgram } from './harness/sdk-program.ts';
const [file, exportName, engine] = process.argv.slice(2);
const program = (await import(`./programs/${file}.ts`))[exportName];
const run = await runProgram(program, engine as any);
console.log(JSON.stringify({ init: run.messages.find((m: any) => m.subtype === 'init'), shapes: run.shapes, error: run.error, observed: run.observed, lastBody: run.requests.at(-1)?.body, firstBody: run.requests[0]?.body }));
