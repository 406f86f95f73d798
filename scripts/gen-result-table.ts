// Rewrites the result table of docs/agent-sdk.md from src/agent-sdk/result-table.ts (between its markers).
import { readFileSync, writeFileSync } from 'node:fs';
import { resultTableMarkdown } from '../src/agent-sdk/result-table.ts';

const path = new URL('../docs/agent-sdk.md', import.meta.url);
const doc = readFileSync(path, 'utf8');
const pattern = /(<!-- result-table:start -->\n)[\s\S]*?(\n<!-- result-table:end -->)/;
if (!pattern.test(doc)) throw new Error('docs/agent-sdk.md: the result-table markers are missing');
writeFileSync(path, doc.replace(pattern, (_all, start: string, end: string) => `${start}${resultTableMarkdown()}${end}`));
