-- Issue 32: what the phones service published to the ingest stream and chats has not acknowledged,
-- so that a nats-server restarted on an empty store loses no inbound message (docs/decisions/0079).
-- Expand-only: a new table.
CREATE TABLE "ingest_log" (
    "id" BIGSERIAL NOT NULL,
    "msg_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "stream_created" TEXT NOT NULL,
    "stream_seq" BIGINT NOT NULL,
    "acked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ingest_log_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ingest_log_stream_created_stream_seq_idx" ON "ingest_log"("stream_created", "stream_seq");
