import type { PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { NO_MAILER } from '../mail/invite-mailer';
import { MEMBERS_HANDLERS, type MembersDeps } from '../members.handlers';

/**
 * For the members int-specs: runs a use case through the handler table (the objects the service binds),
 * by subject, against the test database (and its phones rows as the phones directory: @mapi/testing's
 * phoneDirectoryFromDb, which only test files may import); no mail server, and no chats service unless
 * `overrides` gives one.
 */
export function membersCaller(
  db: () => { prisma: PrismaClient; directory: PhoneDirectory },
  overrides: () => Partial<MembersDeps> = () => ({}),
) {
  const deps = (): MembersDeps => ({
    ...db(),
    mailer: NO_MAILER,
    invites: { consoleBaseUrl: 'https://console.example/', inviteTtlHours: 1 },
    sessionTtlSeconds: 3600,
    setChatAccess: () => Promise.reject(new Error('PATCH /chats/access: usecases/update-chat-access/update-chat-access.int-spec.ts')),
    ...overrides(),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spec reads the answers of many use cases
  return (subject: string, request: unknown): Promise<any> => {
    const line = MEMBERS_HANDLERS.find((h) => h.contract.subject === subject);
    if (!line) throw new Error(`no members handler for ${subject}`);
    return line.build(deps()).execute(line.contract.request.parse(request)) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
}
