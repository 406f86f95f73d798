/**
 * An MCP transport over the SDK's control channel (`mcp_message`): the in-process MCP servers of an SDK program
 * (`createSdkMcpServer`) live in the program, so each JSON-RPC message of our MCP client travels as a
 * `control_request` `{subtype: 'mcp_message', server_name, message}` and the program's `control_response` carries
 * the server's answer as `mcp_response`. Invariant: a request always gets an answer on `onmessage`: when the
 * control request fails (stdin closed, the program answered with an error), a JSON-RPC error with the request's id.
 * Structurally a `Transport` of `@modelcontextprotocol/sdk` (start, send, close, onmessage, onclose, onerror).
 */
import type { JsonObject } from './json-lines.ts';
import { messageOf } from '../errors/message-of.ts';
import { TurnloopError, asError } from '../errors/turnloop-error.ts';

type JsonRpcMessage = JsonObject & { jsonrpc?: string; id?: string | number; method?: string };

export class ControlMcpTransport {
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(
    private readonly serverName: string,
    private readonly ask: (request: JsonObject & { subtype: string }) => Promise<JsonObject>,
  ) {}

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new TurnloopError('SDK_MCP_CLOSED', `the connection to the SDK MCP server '${this.serverName}' is closed`);
    const answer = this.ask({ subtype: 'mcp_message', server_name: this.serverName, message });
    const isRequest = typeof message.method === 'string' && message.id !== undefined;
    if (!isRequest) {
      // Notifications and our answers to the server's requests: the program acknowledges them with a dummy result.
      answer.catch((error: unknown) => this.onerror?.(asError(error)));
      return;
    }
    answer.then(
      (response) => {
        const reply = response.mcp_response as JsonRpcMessage | undefined;
        if (reply && typeof reply === 'object') this.onmessage?.(reply);
        else this.onmessage?.({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'the program answered mcp_message without mcp_response' } });
      },
      (error: unknown) => this.onmessage?.({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: messageOf(error) } }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
