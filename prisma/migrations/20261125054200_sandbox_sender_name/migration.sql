-- Sandbox network: an inbound message may carry its sender's name (push name), so named contacts appear.
ALTER TABLE "sandbox_messages" ADD COLUMN "sender_name" TEXT;
