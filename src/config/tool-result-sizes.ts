/**
 * The result sizes Claude Code's built-in tools declare (`maxResultSizeChars`), by tool name: a result above
 * min(size, 50,000) characters is stored away and replaced by a preview; `Infinity` never is (Read bounds itself).
 * Scripted tools of these names get them by default, so scenarios and imported sessions see the original's limits.
 *
 * Source: Claude Code 2.1.88 `tools/BashTool/BashTool.tsx:424`, `tools/PowerShellTool/PowerShellTool.tsx:275`,
 * `tools/GrepTool/GrepTool.ts:164`, `tools/FileReadTool/FileReadTool.ts:342`, `tools/GlobTool/GlobTool.ts:60`,
 * `tools/FileEditTool/FileEditTool.ts:89`, `tools/FileWriteTool/FileWriteTool.ts:97`, `tools/AgentTool/AgentTool.tsx:229`.
 */
export const CLAUDE_CODE_RESULT_SIZES: Readonly<Record<string, number>> = {
  Bash: 30_000,
  PowerShell: 30_000,
  Grep: 20_000,
  Read: Number.POSITIVE_INFINITY,
  Glob: 100_000,
  Edit: 100_000,
  Write: 100_000,
  Task: 100_000,
};
