import { isDependencyUnavailable } from './dependency-unavailable';

/** The shapes seen from a Postgres that went away under load (bench/faults/run.js's logs), and ones that must stay bugs. */
describe('isDependencyUnavailable', () => {
  it.each([
    ['a pg client used after its connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['a pg client used after it was closed', new Error('Client was closed and is not queryable')],
    ['a connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['Prisma cannot reach the server', Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' })],
    [
      'an admin shutdown (SQLSTATE 57P01) behind Prisma’s raw query error',
      Object.assign(new Error('raw query failed'), { code: 'P2010', meta: { code: '57P01' } }),
    ],
    [
      'a refused socket as the cause',
      Object.assign(new Error('wrapped'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }),
    ],
  ])('%s: unavailable', (_what, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: 'P2002' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
  ])('%s: not unavailable', (_what, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
