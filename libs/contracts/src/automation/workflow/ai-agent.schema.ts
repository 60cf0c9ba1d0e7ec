import { z } from 'zod';

/** What the agent says, in the step's error and in GET /automation/agent, while no model is configured. */
export const AI_AGENT_OFF_NO_MODEL = 'AI agent is off: no model configured';

const label = z
  .string()
  .trim()
  .min(1, 'a label must not be empty')
  .max(100, 'a label is at most 100 characters')
  .regex(/^[^,]*$/, 'a label must not contain a comma');
const labels = z.array(label, { error: 'labels must be an array of label names' }).min(1, 'name at least one label').max(100);

/**
 * What the agent does instead of answering (nothing close enough in the knowledge base, or the model
 * cannot answer): raise a ticket on the chat (through the inbox, like create_ticket), add chat labels,
 * both, or neither (`{}`: no reply, recorded). Either way the customer gets no answer from the agent.
 */
export const AiAgentHandoverSchema = z.object(
  {
    ticket: z
      .object(
        {
          subject: z.string().trim().min(1).max(500).nullable().optional(),
          priority: z.enum(['0', '1', '2', '3', '4'], { error: "priority must be one of '0'..'4'" }).optional(),
          labels: labels.optional(),
          assignee: z.email({ error: 'assignee must be an email' }).nullable().optional(),
        },
        { error: 'ticket must be an object {subject?, priority?, labels?, assignee?} or null' },
      )
      .nullable()
      .optional(),
    labels: labels.optional(),
  },
  { error: 'handover must be an object {ticket?, labels?}' },
);
export type AiAgentHandover = z.infer<typeof AiAgentHandoverSchema>;

/** The agent's own settings (`metadata.agent`): retrieval bounds and the hand-over. */
export const AiAgentSettingsSchema = z.object(
  {
    /** Least similarity (1 − cosine distance) an entry needs to be given to the model; default AI_AGENT_MIN_SCORE. */
    min_score: z
      .number({ error: 'min_score must be a number' })
      .min(-1, 'min_score is at least -1')
      .max(1, 'min_score is at most 1')
      .optional(),
    /** Most entries given to the model; default AI_AGENT_MAX_ENTRIES. */
    max_entries: z
      .number({ error: 'max_entries must be a number' })
      .int('max_entries must be a whole number')
      .min(1, 'max_entries is at least 1')
      .max(20, 'max_entries is at most 20')
      .optional(),
    handover: AiAgentHandoverSchema.optional(),
  },
  {
    error:
      'agent is required: ai_prompt runs here as the knowledge-base AI agent, agent {handover?, min_score?, max_entries?}; a free-form AI prompt is not supported here yet',
  },
);
export type AiAgentSettings = z.infer<typeof AiAgentSettingsSchema>;

/**
 * `ai_prompt` (AIPromptWorkflowAction of @periskope/types, `{query, body}`) run as the knowledge-base
 * AI agent: `query` adds instructions to the agent's prompt (tone, name, language), `body` is the text
 * it answers (empty or absent: the trigger message's body), `agent` is required — a hosted row without
 * it (a free-form prompt whose output other steps read) is refused rather than turned into replies.
 */
export const AiPromptMetadataSchema = z.object({
  query: z.string({ error: 'query must be a string' }).max(4_000, 'query is at most 4000 characters').optional(),
  body: z.string({ error: 'body must be a string' }).max(8_000, 'body is at most 8000 characters').optional(),
  agent: AiAgentSettingsSchema,
});
export type AiPromptMetadata = z.infer<typeof AiPromptMetadataSchema>;
