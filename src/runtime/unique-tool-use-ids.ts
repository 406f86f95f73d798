/**
 * Live model output may repeat a tool_use id (within one reply or from an earlier turn) or send one the API would
 * not accept back. A history holding it is one the API rejects, and two calls sharing an id cannot each get their
 * result. So every tool_use id of a run is made unique as the model's messages arrive, BEFORE the reducer sees them
 * (the logged event already carries the new id, so replay folds the same history): an id already used, or not of
 * the API's form (`[A-Za-z0-9_-]`, 1 to 128 characters), becomes `<id>_<n>` (cleaned), with the first free n.
 * Every call then runs and is answered under its own id (Extension `uniqueToolUseIds`, docs/fidelity.md).
 */
import type { AssistantMessage, Message } from '../messages/types.ts';
import { keepLatest } from '../tools/kept-shapes.ts';

const API_ID = /^[A-Za-z0-9_-]{1,128}$/;

export class ToolUseIdRegistry {
  private readonly used = new Set<string>();

  constructor(history: readonly Message[] = []) {
    for (const message of history) {
      if (message.type !== 'assistant') continue;
      for (const block of message.message.content) if (block.type === 'tool_use') this.used.add(block.id);
    }
    // The latest instance stays reachable, so its hidden class outlives a full GC between runs (see src/tools/kept-shapes.ts).
    keepLatest(ToolUseIdRegistry, this);
  }

  /** The message with every tool_use id unique in the run (the message itself when nothing changed). */
  claim(message: AssistantMessage): AssistantMessage {
    // A loop that copies the content only once an id changes (every reply takes this path; most change nothing).
    const blocks = message.message.content;
    let content: typeof blocks | null = null;
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      if (block.type !== 'tool_use') continue;
      const id = this.unique(block.id);
      if (id === block.id) continue;
      content ??= blocks.slice();
      content[i] = { ...block, id };
    }
    return content === null ? message : { ...message, message: { ...message.message, content } };
  }

  private unique(id: string): string {
    if (API_ID.test(id) && !this.used.has(id)) {
      this.used.add(id);
      return id;
    }
    const base = (typeof id === 'string' ? id : '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'toolu_unnamed';
    let n = 2;
    while (this.used.has(`${base}_${n}`)) n++;
    const fresh = `${base}_${n}`;
    this.used.add(fresh);
    return fresh;
  }
}
