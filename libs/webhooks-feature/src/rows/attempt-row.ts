/** One attempt of the delivery log (`webhook_attempts`), with its event's name (null: the event was swept). */
export interface AttemptRow {
  event_id: string;
  event_type: string | null;
  attempt: number;
  attempted_at: Date;
  success: boolean;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}
