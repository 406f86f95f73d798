/**
 * Where the real Claude Code transcripts the tests use live: `test/fixtures/claude-code-transcripts/` in this
 * repository (with their licence and provenance), so a fresh clone needs nothing beside it.
 */
import { fileURLToPath } from 'node:url';

export const CLAUDE_TRANSCRIPTS_DIR = fileURLToPath(new URL('../fixtures/claude-code-transcripts', import.meta.url));
