// Development probe: runs one program against one engine and prints what it saw.
import { runProgram } from './harness/sdk-program.ts';
const [file, exportName, engine] = process.argv.slice(2);
const program = (await import(`./programs/${file}.ts`))[exportName];
const run = await runProgram(program, engine as 'claude' | 'turnloop');
console.log(JSON.stringify({ shapes: run.shapes, error: run.error, observed: run.observed, unused: run.unusedAnswers, wallMs: Math.round(run.wallMs), requests: run.requests.map((r) => ({ path: r.path, rejected: r.rejected, exhausted: r.exhausted, max_tokens: (r.body as any)?.max_tokens, thinking: (r.body as any)?.thinking, output_config: (r.body as any)?.output_config, roles: (r.body as any)?.messages?.map((m: any) => m.role + ':' + (typeof m.content === 'string' ? 'str' : m.content.map((b: any) => b.type).join('+'))).join(' ') })) }, null, 1));
if (process.env.RAW) for (const m of run.messages) console.log(JSON.stringify(m).slice(0, 1500));
if (process.env.STDERR) console.log(run.stderr);
