import type { SessionCommand } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';

/**
 * Test double of the session commands (the phone's session stands for the messaging network): it
 * records each command and answers as a connected session would. Used by the use-case int-specs;
 * the e2e specs run the real sessions on the sandbox network.
 */
export function recordingSessions(): { sessions: SessionCommands; sent: { phoneId: string; cmd: SessionCommand }[] } {
  const sent: { phoneId: string; cmd: SessionCommand }[] = [];
  const sessions = {
    require: async (phoneId: string, cmd: SessionCommand) => {
      sent.push({ phoneId, cmd });
      return {
        ok: true as const,
        ...(cmd.cmd === 'message-forward'
          ? { sent: { unique_id: `FWD${sent.length}`, timestamp: new Date().toISOString(), duplicate: false } }
          : {}),
      };
    },
  } as unknown as SessionCommands;
  return { sessions, sent };
}
