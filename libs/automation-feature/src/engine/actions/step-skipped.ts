/**
 * Thrown by an action that deliberately does nothing for this event (the AI agent switched off for the
 * phone): the step is recorded `skipped` with the reason and what it found, and the run ends completed
 * with that reason (a deliberate no, like a condition that does not hold, is not a failure).
 */
export class StepSkipped extends Error {
  constructor(
    reason: string,
    readonly result: Record<string, unknown> = {},
  ) {
    super(reason);
  }
}
