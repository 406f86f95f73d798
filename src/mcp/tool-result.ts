/**
 * An MCP `tools/call` result as a turnloop tool result. This is a pure function.
 *
 * - `text` stays text; `image` becomes an image block; an embedded `resource` becomes its text (under its URI), an
 *   image or a PDF document block when its blob is one, else a line saying what was left out; a `resource_link` and
 *   `audio` become a line naming them (the Messages API takes neither in a tool result).
 * - With no content blocks, `structuredContent` is given as JSON text (servers should send both; some do not).
 * - `isError` carries over, so the model sees the server's failure as a tool error.
 */
import type { DocumentBlock, ImageBlock, TextBlock } from '../messages/types.ts';
import type { ToolCallResult } from '../tools/define-tool.ts';

/** The parts of a `CallToolResult` (MCP spec) this module reads. */
export interface McpCallToolResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

type Block = TextBlock | ImageBlock | DocumentBlock;

/** Image types the Messages API accepts. */
const API_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export function toolResultOfMcp(result: McpCallToolResult): ToolCallResult {
  const blocks = (result.content ?? []).flatMap(blockOf);
  if (blocks.length === 0 && result.structuredContent !== undefined) blocks.push(text(JSON.stringify(result.structuredContent)));
  const content = blocks.every((b) => b.type === 'text') ? blocks.map((b) => (b as TextBlock).text).join('\n') : blocks;
  return result.isError === true ? { content, isError: true } : { content };
}

function text(value: string): TextBlock {
  return { type: 'text', text: value };
}

function blockOf(raw: unknown): Block[] {
  if (raw === null || typeof raw !== 'object') return [];
  const item = raw as Record<string, unknown>;
  switch (item.type) {
    case 'text':
      return [text(String(item.text ?? ''))];
    case 'image':
      return [mediaBlock(String(item.mimeType ?? ''), String(item.data ?? ''), 'an image')];
    case 'audio':
      return [text(`[audio (${String(item.mimeType ?? 'unknown type')}) left out: the model cannot take audio in a tool result]`)];
    case 'resource_link':
      return [text(`[resource link: ${describeResource(item)}]`)];
    case 'resource':
      return embeddedResource((item.resource ?? {}) as Record<string, unknown>);
    default:
      return [text(`[MCP content of type ${JSON.stringify(item.type)} left out: not supported]`)];
  }
}

function embeddedResource(resource: Record<string, unknown>): Block[] {
  const uri = String(resource.uri ?? '');
  if (typeof resource.text === 'string') return [text(`[resource ${uri}]\n${resource.text}`)];
  const mime = String(resource.mimeType ?? '');
  if (typeof resource.blob === 'string') return [mediaBlock(mime, resource.blob, `the resource ${uri}`)];
  return [text(`[resource ${uri}: no content]`)];
}

/** An image or PDF the API takes as a block; anything else as a line saying it was left out. */
function mediaBlock(mime: string, base64: string, what: string): Block {
  if (API_IMAGE_TYPES.has(mime)) return { type: 'image', source: { type: 'base64', media_type: mime, data: base64 } };
  if (mime === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: mime, data: base64 } };
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return text(`[${what} (${mime || 'unknown type'}, ${bytes} bytes) left out: the model cannot take this type]`);
}

function describeResource(item: Record<string, unknown>): string {
  const parts = [String(item.uri ?? '')];
  if (typeof item.name === 'string') parts.unshift(item.name);
  if (typeof item.mimeType === 'string') parts.push(`(${item.mimeType})`);
  if (typeof item.description === 'string') parts.push(`- ${item.description}`);
  return parts.join(' ');
}
