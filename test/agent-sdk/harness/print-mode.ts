/**
 * The shell form, `claude -p "<prompt>" --output-format text|json`, as pipelines run it: the executable is spawned
 * directly (no SDK) in the offline environment, against a fresh fake API with the given script.
 */
import { spawn } from 'node:child_process';
import { makeRunDirs, offlineEnv, printCommand, MODEL, type EngineName } from './engines.ts';
import { startFakeAnthropicApi, type FakeScriptInput } from './fake-api.ts';
import { assertLoopbackOnly } from './offline-guard.ts';

export interface PrintRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

export async function runPrintMode(engine: EngineName, script: FakeScriptInput, prompt: string, format: 'text' | 'json'): Promise<PrintRun> {
  assertLoopbackOnly();
  const api = await startFakeAnthropicApi(script);
  const dirs = makeRunDirs();
  const { command, args } = printCommand(engine);
  const started = performance.now();
  try {
    return await new Promise<PrintRun>((resolve, reject) => {
      const child = spawn(command, [...args, '-p', prompt, '--output-format', format, '--model', MODEL], {
        cwd: dirs.cwd,
        env: offlineEnv(api.baseURL, dirs),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 45_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr, wallMs: performance.now() - started }));
    });
  } finally {
    await api.close();
  }
}
