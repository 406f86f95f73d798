/**
 * Skills and memory files of the setting sources (setting-sources.ts), as the real executable uses them: each
 * `<skills dir>/<name>/SKILL.md` with its front matter (`name`, `description`) is a skill, listed in `system/init`
 * and to the model; the `Skill` tool answers `Launching skill: NAME` and the skill's body then reaches the model as
 * a user message (`Base directory for this skill: <dir>` and the body). Memory files (CLAUDE.md, ...) reach the model
 * before the first prompt. Every file is data from the workspace: it is opened only when its real path stays inside
 * its source's directory (as the file tools are confined, src/tools/builtin/confine-path.ts), and read up to a size limit.
 * A skill file that cannot be used (front matter that is not YAML, a name or description of the wrong kind, too big,
 * outside its directory) is named on stderr with the reason and left out; the run goes on.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.ts';
import type { PostToolHook } from '../tools/call-deps.ts';
import type { Message } from '../messages/types.ts';
import { confinePath } from '../tools/builtin/confine-path.ts';
import { messageOf } from '../errors/message-of.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { sourcePlaces, type SettingSource } from './setting-sources.ts';

export const SKILL_TOOL = 'Skill';
/** The attachment name that carries a skill's body from the Skill call to the session (headless-session.ts). */
export const SKILL_CONTEXT_NAME = 'skill';
const MAX_FILE_BYTES = 256 * 1024;

export interface SkillDefinition {
  name: string;
  description: string;
  body: string;
  /** The skill's directory (real path). */
  dir: string;
  source: SettingSource;
}

export interface MemoryFile {
  path: string;
  content: string;
  source: SettingSource;
}

export interface LoadedSources {
  skills: SkillDefinition[];
  memory: MemoryFile[];
}

/** A confined, size-limited read; undefined when the file does not exist. */
async function readConfined(root: string, relative: string): Promise<{ path: string; content: string } | undefined> {
  let confined;
  try {
    confined = await confinePath(root, relative);
  } catch (error) {
    // A missing file, or a missing source directory (no ~/.claude on a fresh machine): nothing to read, as on claude.
    const code = (error as { code?: string }).code;
    if (code === 'PATH_NOT_FOUND' || code === 'ENOENT') return undefined;
    throw error;
  }
  const info = await stat(confined.absolute);
  if (!info.isFile()) return undefined;
  if (info.size > MAX_FILE_BYTES) throw new TurnloopError('SKILL_FILE_INVALID', `it is ${info.size} bytes, over the limit of ${MAX_FILE_BYTES}`);
  return { path: confined.absolute, content: await readFile(confined.absolute, 'utf8') };
}

const frontMatterSchema = z.looseObject({ name: z.string().min(1).optional(), description: z.string().optional() });

/** Splits `---\n<yaml>\n---\n<body>`; a file without front matter is all body. */
export async function parseSkillFile(text: string, fallbackName: string): Promise<{ name: string; description: string; body: string }> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  let meta: z.infer<typeof frontMatterSchema> = {};
  let body = text;
  if (match) {
    const { parse } = await import('yaml');
    let data: unknown;
    try {
      data = parse(match[1]) ?? {};
    } catch (error) {
      throw new TurnloopError('SKILL_FILE_INVALID', `its front matter is not YAML: ${messageOf(error).split('\n')[0]}`);
    }
    const checked = frontMatterSchema.safeParse(data);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new TurnloopError('SKILL_FILE_INVALID', `its front matter's ${issue?.path.join('.') || 'top level'} is invalid: expected ${issue?.path.length ? 'a string' : 'a mapping of keys to values'}`);
    }
    meta = checked.data;
    body = match[2];
  }
  body = body.replace(/^\s*\n/, '');
  const firstLine = body.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  return { name: meta.name ?? fallbackName, description: meta.description ?? firstLine, body };
}

export async function loadSources(sources: readonly SettingSource[], cwd: string, env: Record<string, string | undefined>, warn: (text: string) => void): Promise<LoadedSources> {
  const loaded: LoadedSources = { skills: [], memory: [] };
  for (const place of sourcePlaces(sources, cwd, env)) {
    for (const file of place.memoryFiles) {
      try {
        const read = await readConfined(place.root, file);
        if (read) loaded.memory.push({ ...read, source: place.source });
      } catch (error) {
        warn(`${join(place.root, file)} is left out: ${messageOf(error)}`);
      }
    }
    if (!place.skillsDir) continue;
    let names: string[];
    try {
      names = (await readdir(join(place.root, place.skillsDir))).sort();
    } catch {
      continue;
    }
    for (const dirName of names) {
      const relative = join(place.skillsDir, dirName, 'SKILL.md');
      try {
        const read = await readConfined(place.root, relative);
        if (!read) continue;
        const skill = await parseSkillFile(read.content, dirName);
        if (loaded.skills.some((s) => s.name === skill.name)) continue; // the first source to name a skill wins
        loaded.skills.push({ ...skill, dir: dirname(read.path), source: place.source });
      } catch (error) {
        warn(`the skill ${join(place.root, relative)} is left out: ${messageOf(error)}`);
      }
    }
  }
  return loaded;
}

/**
 * The SDK's `skills` option (the `initialize` request's `skills`): which skills the model is offered. An array names
 * them (by `name` or directory name); `'all'` or none offers every one. As claude 2.1.334 (probed): `init` still
 * lists every skill, the model's list holds only these, and the Skill tool refuses the others. Undefined: the value
 * is neither (the caller reports it).
 */
export function skillAllowList(value: unknown): ((skill: SkillDefinition) => boolean) | undefined {
  if (value === undefined || value === null || value === 'all') return () => true;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return undefined;
  const names = new Set(value as string[]);
  return (skill) => names.has(skill.name) || names.has(basename(skill.dir));
}

/** The text that gives the model the memory files and the skill list before the first prompt; undefined when empty. */
export function sourcesContext(loaded: LoadedSources, offered: (skill: SkillDefinition) => boolean = () => true): string | undefined {
  const parts: string[] = [];
  if (loaded.memory.length > 0) {
    parts.push([
      'Instructions from the project and the user follow; they take precedence over your defaults.',
      ...loaded.memory.map((m) => `\nContents of ${m.path} (${m.source} instructions):\n\n${m.content.trimEnd()}`),
    ].join('\n'));
  }
  const skills = loaded.skills.filter(offered);
  if (skills.length > 0) {
    parts.push(['Skills you can start with the Skill tool:', '', ...skills.map((s) => `- ${s.name}: ${s.description}`)].join('\n'));
  }
  return parts.length === 0 ? undefined : parts.map((p) => `<system-reminder>\n${p}\n</system-reminder>`).join('\n');
}

const skillInput = z.strictObject({
  skill: z.string().describe('The name of a skill from the list of available skills.'),
  args: z.string().optional().describe('Arguments for the skill, if it takes any.'),
});

function skillText(skill: SkillDefinition, args: string | undefined): string {
  const text = `Base directory for this skill: ${skill.dir}\n\n${skill.body}`;
  return args ? `${text}\n\nARGUMENTS: ${args}` : text;
}

/** The Skill tool and the post-tool hook that hands the called skill's body to the loop; `offered` is read at each call. */
export function createSkillTool(skills: readonly SkillDefinition[], offered: () => (skill: SkillDefinition) => boolean = () => () => true): { tool: Tool; hook: PostToolHook } {
  const byName = new Map(skills.map((s) => [s.name, s]));
  const tool = defineTool({
    name: SKILL_TOOL,
    description: 'Starts a skill: a set of instructions the user or the project has written for one kind of task. Call it with the exact name of a listed skill when the task is one it covers; its instructions then follow.',
    inputSchema: skillInput,
    isReadOnly: () => true,
    call: ({ skill }) => {
      const name = skill.replace(/^\//, '');
      const found = byName.get(name);
      // claude's text, with the wrapper its tools' input checks put around a refusal.
      if (found && !offered()(found)) return { content: `<tool_use_error>Skill ${name} is not in this session's skills allowlist</tool_use_error>`, isError: true };
      if (!found) return { content: `Unknown skill: ${name}. Available skills: ${skills.filter(offered()).map((s) => s.name).join(', ') || 'none'}`, isError: true };
      return { content: `Launching skill: ${name}` };
    },
  });
  const hook: PostToolHook = async ({ toolName, input, result, newId }) => {
    if (toolName !== SKILL_TOOL || result.isError) return undefined;
    const { skill, args } = input as z.infer<typeof skillInput>;
    const found = byName.get(skill.replace(/^\//, ''));
    if (!found) return undefined;
    const message: Message = { type: 'attachment', uuid: newId(), attachment: { type: 'context', name: SKILL_CONTEXT_NAME, content: skillText(found, args) } };
    return { messages: [message] };
  };
  return { tool, hook };
}
