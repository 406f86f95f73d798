/**
 * The help of the headless mode (`turnloop -p --help`): Claude Code's command line as turnloop implements it
 * (src/agent-sdk/headless-args.ts parses it; docs/agent-sdk.md has the whole protocol).
 */
export const HEADLESS_HELP = `Usage: turnloop -p "<prompt>" [options]
       turnloop --output-format stream-json --input-format stream-json [options]   (the Claude Agent SDK)

Claude Code's headless mode: what \`claude -p\` pipelines and the Agent SDK's query() run. Without a key it runs
offline against a scripted model: turnloop -p "Say hello" --example hello

Model:
  --example NAME              a fake-API script that ships with turnloop (turnloop examples lists them), offline
  --fake-api FILE             a fake-API script of your own (docs/fake-api.md), offline
  (neither)                   the Anthropic API: ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL for a proxy
  --model M                   the model

The prompt is the first argument that is not an option, or stdin when there is none. After -- no argument is an
option: turnloop -p -- -h sends the prompt "-h" (-h and --help elsewhere print this help).

Input and output:
  --output-format FORMAT      text (default: the answer), json (the result object), stream-json (every message)
  --input-format FORMAT       text (default: the prompt argument or stdin), stream-json (the SDK's protocol)
  --include-partial-messages  also write stream_event messages
  --verbose                   accepted (stream-json always writes every message)

The run:
  --max-turns N               turns of the model per prompt
  --max-budget-usd X          stop once the run's cost reaches X
  --system-prompt TEXT        replace the system prompt; --append-system-prompt TEXT adds to it
  --tools a,b                 the built-in tools offered (default: all)
  --allowedTools RULES        allow without asking: Bash, Bash(git log:*), Read(src/x.ts), mcp__server
  --disallowedTools RULES     never allow
  --permission-mode MODE      default, acceptEdits, plan, bypassPermissions, dontAsk
  --permission-prompt-tool stdio   ask the SDK program (can_use_tool)
  --dangerously-skip-permissions   the bypassPermissions mode
  --mcp-config FILE|JSON      MCP servers to connect (stdio and HTTP)

Sessions (logged to .turnloop/sessions/<id>.jsonl, for turnloop replay and viz):
  --session-id ID, --resume ID, --continue, --fork-session
  --no-session-persistence    write no session log

Other flags of Claude Code are named once on stderr and ignored. Exit codes: 0 ok, 1 the last result was an
error, 2 bad input (a bad flag value, an unknown session, no key and no --fake-api). docs/agent-sdk.md has the rest.
`;
