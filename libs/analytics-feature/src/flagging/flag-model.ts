import type { ChatMessage } from '@mapi/platform';

/** What the model decided about a message. */
export interface ModelVerdict {
  flag: boolean;
  reason: string | null;
}

/** The request: the organization's rule (what to flag) and the customer's message. */
export function flagPrompt(rulePrompt: string, body: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You review messages that customers send to a support team on WhatsApp and decide whether a message needs the ' +
        "team's attention.\nFlag a message when: " +
        rulePrompt +
        '\nAnswer with JSON only, no other text: {"flag": true, "reason": "<one short sentence>"} or {"flag": false}.',
    },
    { role: 'user', content: body.slice(0, 4000) },
  ];
}

/**
 * The model's answer read: a JSON object (possibly in a code fence or after some text) with a boolean
 * `flag` and a string `reason`; else a first word FLAG / YES (the rest being the reason) or NO / OK.
 * Anything else is null (the answer is not understood: nothing is flagged).
 */
export function readVerdict(answer: string): ModelVerdict | null {
  const json = answer.match(/\{[\s\S]*\}/);
  if (json) {
    try {
      const v = JSON.parse(json[0]) as { flag?: unknown; reason?: unknown };
      if (typeof v.flag === 'boolean')
        return { flag: v.flag, reason: v.flag && typeof v.reason === 'string' && v.reason.trim() ? v.reason.trim().slice(0, 500) : null };
    } catch {
      // not JSON: read as words below
    }
  }
  const m = answer.trim().match(/^(flag|yes|no|ok)\b[\s:.,-]*([\s\S]*)$/i);
  if (!m) return null;
  const flag = /^(flag|yes)$/i.test(m[1]);
  return { flag, reason: flag && m[2].trim() ? m[2].trim().slice(0, 500) : null };
}
