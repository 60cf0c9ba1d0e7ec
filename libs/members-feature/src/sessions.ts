import { randomUUID } from 'node:crypto';
import type { IssuedSession } from '@mapi/contracts';
import { mapMember } from './map-member';
import type { Db, MemberRecord } from './repositories/member-repository';
import type { SessionRepository } from './repositories/session-repository';
import { newSecret, sha256Hex } from './secrets';

/** Opens a console session for the member: random cookie and CSRF tokens, only their hashes stored. */
export async function openSession(sessions: SessionRepository, member: MemberRecord, ttlSeconds: number, db?: Db): Promise<IssuedSession> {
  const session_token = newSecret();
  const csrf_token = newSecret();
  const expires = new Date(Date.now() + ttlSeconds * 1000);
  await sessions.create(
    member.org_id,
    {
      session_id: randomUUID(),
      member_id: member.member_id,
      token_hash: sha256Hex(session_token),
      csrf_hash: sha256Hex(csrf_token),
      expires_at: expires,
    },
    db,
  );
  return { member: mapMember(member), org_id: member.org_id, csrf_token, expires_at: expires.toISOString(), session_token };
}
