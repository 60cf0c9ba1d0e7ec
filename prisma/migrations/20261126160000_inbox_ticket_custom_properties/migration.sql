-- Ticket custom properties (issue 17): a ticket's values of the organization's custom properties of type
-- ticket, keyed by property_id. Expand-only (a default, no rewrite of existing rows on Postgres 11+).
ALTER TABLE "inbox_tickets" ADD COLUMN "custom_properties" JSONB NOT NULL DEFAULT '{}';
