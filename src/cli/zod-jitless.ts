/**
 * zod parses without its JIT in a headless process (imported first by headless-entry.ts, so it runs before any
 * module builds a schema: zod reads the setting when a schema is made). The JIT compiles a function from generated
 * source (`new Function`) for each object schema the first time it parses; a headless process is short and parses
 * each schema a few times, so that compile (about 6 ms of CPU over an SDK session's schemas, never in the code
 * cache) costs more than it saves. The results are the same: zod's interpreted path is the one the JIT stands for.
 */
import { config } from 'zod';

config({ jitless: true });
