/**
 * Where the shared Claude Code transcripts live: `shared/` beside the repository, as on a developer's machine and
 * in CI (which clones the repo next to a copy of `shared/`).
 */
import { fileURLToPath } from 'node:url';

export const CLAUDE_TRANSCRIPTS_DIR = fileURLToPath(new URL('../../../shared/fixtures/claude-code-transcripts', import.meta.url));
