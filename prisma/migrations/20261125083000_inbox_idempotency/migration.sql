-- Idempotency-Key on POST /tickets/create and /note/create: the row's id derives from the key, and the
-- request that made it is fingerprinted so that a repeat with another body is refused. Expand-only.
ALTER TABLE "inbox_tickets" ADD COLUMN "request_hash" TEXT;
ALTER TABLE "inbox_notes" ADD COLUMN "request_hash" TEXT;
