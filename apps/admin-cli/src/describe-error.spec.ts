import { AdminError } from '@mapi/admin-feature';
import { describeError } from './describe-error';

class PrismaClientKnownRequestError extends Error {
  override name = 'PrismaClientKnownRequestError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

describe('describeError', () => {
  it('prints an AdminError message as it is', () => {
    expect(describeError(new AdminError('organization x not found'))).toBe('organization x not found');
  });

  it('keeps the last line of a Prisma error, with a hint', () => {
    const message =
      'Invalid `prisma.organization.findMany()` invocation in\n/x.js:5:1\n\n  4 code\n\nThe table `public.organizations` does not exist in the current database.';
    expect(describeError(new PrismaClientKnownRequestError(message, 'P2021'))).toBe(
      'database error: The table `public.organizations` does not exist in the current database. (apply the migrations: npm run db:migrate)',
    );
    expect(describeError(new PrismaClientKnownRequestError("x\n\nCan't reach database server at 127.0.0.1:5999", 'P1001'))).toBe(
      "database error: Can't reach database server at 127.0.0.1:5999 (check DATABASE_URL)",
    );
  });

  it('reduces anything else to one line', () => {
    const out = describeError(new Error('first line\nsecond line'));
    expect(out).toBe('unexpected error: first line');
    expect(describeError('boom')).toBe('unexpected error: boom');
  });
});
