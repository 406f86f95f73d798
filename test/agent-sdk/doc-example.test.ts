/**
 * docs/agent-sdk.md's first example, run as written: a complete vitest test of an SDK program against a scripted
 * model (`turnloop/agent-sdk`'s `agentSdkOptions`, offline through `--fake-api`). It needs the SDK, which only this
 * package installs. The block is copied unchanged into `.doc-examples/` (so its imports resolve from this
 * package) and imported while this file is collected, so its `it(...)` is a test of this run.
 * `turnloop/agent-sdk` resolves to the root's built `dist/` (vitest.config.ts), as an installed package would.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertLoopbackOnly } from './harness/offline-guard.ts';

const here = dirname(fileURLToPath(import.meta.url));
const doc = readFileSync(join(here, '../../docs/agent-sdk.md'), 'utf8');
const firstExample = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
if (!firstExample) throw new Error('docs/agent-sdk.md has no ```ts block');

assertLoopbackOnly();
const generated = join(here, '.doc-examples/agent-sdk-first-example.ts');
mkdirSync(dirname(generated), { recursive: true });
writeFileSync(generated, `// Copied from docs/agent-sdk.md by doc-example.test.ts; do not edit.\n${firstExample}`);
await import(generated);
