/**
 * The Anthropic SDK's client with the one API the model caller uses, `messages`: the SDK's own base client (the
 * same options, headers, auth, retries and errors) and its own `Messages` resource, as the full `Anthropic` class
 * builds them, without the other resources (`models`, `files`, `skills`, `beta`, `organization`...).
 *
 * Why not `new Anthropic()`: the full client imports every resource, about 1 MB of the SDK's 1.4 MB, which a
 * headless process (src/cli/bundle-loader.ts) read, deserialised from its code cache and initialised at every
 * start-up for nothing; importing the two classes lets the bundler leave the rest out (the SDK declares no side
 * effects). The one other difference, `_supportsMessageThreads`, is only read by the beta API's message threads.
 */
import { BaseAnthropic, type ClientOptions } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import type { MessagesClient } from './stream-attempt.ts';

export function createMessagesClient(options: ClientOptions): MessagesClient {
  const client = new BaseAnthropic(options);
  return Object.assign(client, { messages: new Messages(client) });
}
