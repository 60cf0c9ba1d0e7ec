-- The relay no longer marks each event published (a lock, a ~1 KB row copy and index entries per
-- event: about 195 ms of Postgres CPU per 1,000 events). Writers take one transaction-level advisory
-- lock before they insert events (writeEvents), so `seq` order is commit order, and the relay keeps
-- one cursor: events with seq <= last_seq are published.

-- CreateTable
CREATE TABLE "outbox_cursor" (
    "name" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_cursor_pkey" PRIMARY KEY ("name")
);

-- Everything before the oldest unpublished event was published (a published event after it is
-- published again with the same Nats-Msg-Id; consumers are idempotent by event id).
INSERT INTO "outbox_cursor" ("name", "last_seq")
SELECT 'relay', COALESCE((SELECT min("seq") - 1 FROM "outbox_events" WHERE "published_at" IS NULL), (SELECT max("seq") FROM "outbox_events"), 0);

-- DropIndex
DROP INDEX "outbox_events_published_at_seq_idx";

-- "published_at" stays one release (expand, then contract): relays of the previous release, still
-- running during a rolling update, publish rows where it is NULL (again, with the same
-- Nats-Msg-Id) and so also cover events their writers inserted without the outbox lock. Nothing
-- of this release reads or writes it; the next release drops it.

-- CreateIndex
CREATE UNIQUE INDEX "outbox_events_seq_key" ON "outbox_events"("seq");
