#!/usr/bin/env node
'use strict';
/**
 * Postgres's own CPU per page read of GET /chats and GET /chats/messages: the repositories' SQL
 * (captured from the built libs of a checkout), run 10 times on one connection, the backend's
 * utime+stime read from /proc/<pg_backend_pid>/stat before and after (Postgres on this host). Less
 * sensitive to the machine's load than wall time. Usage (a database seeded by bench/chats/stages.js):
 *   node bench/chats/pg-cpu.js <database url> <checkout root, e.g. /work/main>
 */
const fs = require('node:fs');
const pg = require(process.argv[3] + '/node_modules/pg');
const { Prisma } = require(process.argv[3] + '/node_modules/@mapi/db');
// AllMessagesRepository: only where a checkout's index exports it (this tree has none).
const { ChatViewRepository, MessageRepository, AllMessagesRepository } = require('../lib/internals').internalsOf(
  process.argv[3],
  'chats-feature',
);
const cpu = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
(async () => {
  const pool = new pg.Pool({ connectionString: process.argv[2], max: 1 });
  const {
    rows: [{ org_id, pid }],
  } = await pool.query('SELECT org_id::text, pg_backend_pid() AS pid FROM chats LIMIT 1');
  let captured = [];
  const db = {
    $queryRaw: async (s, ...v) => {
      captured.push(s instanceof Prisma.Sql ? s : Prisma.sql(s, ...v));
      return [];
    },
  };
  const cases = [
    ['chats list 2000', () => new ChatViewRepository(db).list(org_id, { phoneIds: null, offset: 0, limit: 2000 })],
    ['chats list 2000 vip', () => new ChatViewRepository(db).list(org_id, { phoneIds: null, label: 'vip', offset: 0, limit: 2000 })],
    ['chats list 100', () => new ChatViewRepository(db).list(org_id, { phoneIds: null, offset: 0, limit: 100 })],
    ['messages listAll 2000 (row)', () => new MessageRepository(db).listAll(org_id, { phoneIds: null, offset: 0, limit: 2000 })],
  ];
  if (AllMessagesRepository) {
    cases.push(['all messages 2000 (api)', () => new AllMessagesRepository(db).list(org_id, { phoneIds: null, offset: 0, limit: 2000 })]);
  }
  for (const [name, run] of cases) {
    captured = [];
    await run();
    const sql = captured[0];
    await pool.query(sql.text, sql.values);
    const n = 10;
    const c0 = cpu(pid);
    const n0 = process.cpuUsage();
    const t0 = Date.now();
    for (let i = 0; i < n; i++) await pool.query(sql.text, sql.values);
    const nu = process.cpuUsage(n0);
    console.log(
      `${name.padEnd(28)} postgres backend CPU ${((cpu(pid) - c0) / n).toFixed(0)} ms/query | node (pg client) CPU ${((nu.user + nu.system) / 1000 / n).toFixed(0)} ms | wall ${((Date.now() - t0) / n).toFixed(0)} ms`,
    );
  }
  await pool.end();
})();
