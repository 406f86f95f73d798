/**
 * A prompt as the person typed it, from the content Claude Code recorded: text blocks joined, a slash command as
 * `/name args` rather than its `<command-name>` markup; a local command's output and the caveat Claude Code adds
 * before it are not prompts (null). Pure: the viewer's page uses it too.
 */

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What a person typed, on one line (listings). */
export function promptText(content: unknown): string | null {
  const typed = typedPrompt(content);
  return typed === null ? null : oneLine(typed);
}

/** What a person typed, from a user line's content: text blocks joined, a slash command as `/name args`. */
export function typedPrompt(content: unknown): string | null {
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.flatMap((b) => (b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' ? [String((b as { text?: unknown }).text ?? '')] : [])).join('\n') : '';
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (command) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text);
    return `${command[1]} ${args?.[1] ?? ''}`.trim();
  }
  // Output of a local command and the caveat Claude Code adds are not prompts.
  if (text.trim() === '' || text.startsWith('<local-command-') || text.startsWith('Caveat:')) return null;
  return text.trim();
}

