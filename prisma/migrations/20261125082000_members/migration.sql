-- The members service's tables (issue 18): organization members, invitations, console sessions and
-- the audit trail. New tables only (expand-only).
CREATE TABLE "members" (
    "member_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "member_name" TEXT,
    "role" TEXT NOT NULL DEFAULT 'member',
    "phones_limited" BOOLEAN NOT NULL DEFAULT false,
    "phone_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "org_phones" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "labels_limited" BOOLEAN NOT NULL DEFAULT false,
    "label_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "password_hash" TEXT,
    "member_color" TEXT NOT NULL DEFAULT '#7D9EF1',
    "invited_by" TEXT,
    "invited_at" TIMESTAMPTZ(3),
    "joined_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "members_pkey" PRIMARY KEY ("member_id")
);

CREATE TABLE "member_invitations" (
    "invitation_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_invitations_pkey" PRIMARY KEY ("invitation_id")
);

CREATE TABLE "member_sessions" (
    "session_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "csrf_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_sessions_pkey" PRIMARY KEY ("session_id")
);

CREATE TABLE "member_audit" (
    "audit_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_email" TEXT,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_audit_pkey" PRIMARY KEY ("audit_id")
);

CREATE UNIQUE INDEX "members_org_id_email_key" ON "members"("org_id", "email");
CREATE INDEX "members_email_idx" ON "members"("email");
CREATE UNIQUE INDEX "member_invitations_token_hash_key" ON "member_invitations"("token_hash");
CREATE INDEX "member_invitations_org_id_member_id_idx" ON "member_invitations"("org_id", "member_id");
CREATE UNIQUE INDEX "member_sessions_token_hash_key" ON "member_sessions"("token_hash");
CREATE INDEX "member_sessions_org_id_member_id_idx" ON "member_sessions"("org_id", "member_id");
CREATE INDEX "member_audit_org_id_created_at_audit_id_idx" ON "member_audit"("org_id", "created_at" DESC, "audit_id" DESC);

ALTER TABLE "member_invitations" ADD CONSTRAINT "member_invitations_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("member_id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "member_sessions" ADD CONSTRAINT "member_sessions_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("member_id") ON DELETE CASCADE ON UPDATE CASCADE;
