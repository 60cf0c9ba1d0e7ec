import { isDependencyUnavailable, unavailableDependency } from './dependency-unavailable';

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

  it.each([
    ['a command refused while Redis is away', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    [
      'a command under way when the connection dropped',
      new Error('Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.'),
    ],
    ['a command on a closed connection', new Error('Connection is closed.')],
  ])('%s: Redis unavailable', (_what, error) => {
    expect(unavailableDependency(error)).toBe('redis');
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('names the database for a database failure and nothing for a bug', () => {
    expect(unavailableDependency(new Error('Connection terminated unexpectedly'))).toBe('database');
    expect(unavailableDependency(new Error('Connection is closed by the user code'))).toBeNull();
    expect(unavailableDependency(new TypeError('x is not a function'))).toBeNull();
  });
});
