import { ChatCompletionsClient as SharedClient, ModelRefusedError, type ChatMessage } from '@mapi/platform';
import { ActionError } from '../engine/actions/action-context';

export { ModelUnavailableError, type ChatCompletionsOptions, type ChatMessage } from '@mapi/platform';

/**
 * The AI agent's model client: the shared OpenAI-compatible client of libs/platform (also used by message
 * flagging), whose refusals (a 4xx other than 429, an answer that is no completion) fail the step as an
 * ActionError; ModelUnavailableError (unreachable, timed out, 5xx, 429) is retried like a 503.
 */
export class ChatCompletionsClient extends SharedClient {
  override async complete(messages: ChatMessage[]): Promise<string> {
    try {
      return await super.complete(messages);
    } catch (err) {
      if (err instanceof ModelRefusedError) throw new ActionError(err.message);
      throw err;
    }
  }
}
