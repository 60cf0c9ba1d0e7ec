import { bullConnection } from './bull-connection';

describe('BullMQ connection options from a Redis URL', () => {
  it('reads host, port and database, with the defaults when absent', () => {
    expect(bullConnection('redis://redis')).toEqual({
      host: 'redis',
      port: 6379,
      username: undefined,
      password: undefined,
      db: 0,
      tls: undefined,
      maxRetriesPerRequest: null,
    });
    expect(bullConnection('redis://127.0.0.1:6380/3')).toMatchObject({ host: '127.0.0.1', port: 6380, db: 3 });
  });

  it('reads the credentials (the password decoded) and turns on TLS for rediss://', () => {
    expect(bullConnection('rediss://app:p%40ss%2Fword@cache.example:6390/1')).toEqual({
      host: 'cache.example',
      port: 6390,
      username: 'app',
      password: 'p@ss/word',
      db: 1,
      tls: {},
      maxRetriesPerRequest: null,
    });
  });
});
