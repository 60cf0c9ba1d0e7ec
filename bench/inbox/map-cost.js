#!/usr/bin/env node
'use strict';
/**
 * CPU of the inbox's own work on a 100-ticket page of GET /tickets, in one process, the two ways
 * interleaved: each row's `row_to_json` text parsed, revived into Dates and mapped (reviveTicket +
 * mapTicket, before) against parsed and mapped by string (mapTicketJson, now); then the page's
 * JSON.stringify as the RPC server does. Rows as the bench seeds them (two timestamps set, three
 * null; every 7th labelled; every 3rd with two custom property values).
 * Usage: bash scripts/build.sh && node bench/inbox/map-cost.js
 */
const path = require('node:path');
const { randomUUID } = require('node:crypto');

process.chdir(path.join(__dirname, '..', '..'));
const dist = path.join(__dirname, '..', '..', 'libs/inbox-feature/dist');
const { mapTicket, mapTicketJson } = require(path.join(dist, 'map-ticket.js'));
const { reviveTicket } = require(path.join(dist, 'repositories/ticket-repository.js'));

const org = randomUUID();
const texts = Array.from({ length: 100 }, (_, i) => {
  const at = new Date(Date.UTC(2026, 10, 26, 12) - i * 1000 - 0.123).toISOString().replace('Z', '456+00:00');
  return JSON.stringify({
    ticket_id: randomUUID(),
    org_id: org,
    phone_id: `phone-${i % 3}`,
    chat_id: `${919800000000 + i}@c.us`,
    subject: `Ticket ${i}`,
    status: 'open',
    priority: 1 + (i % 4),
    assignee: 'agent7@example.com',
    assigned_by: null,
    first_assigned_at: null,
    raised_by: null,
    quoted_message_id: null,
    attached_message_ids: [],
    due_date: null,
    labels: i % 7 ? [] : ['vip'],
    custom_properties: i % 3 ? {} : { [randomUUID()]: 'High', [randomUUID()]: '12.50' },
    closed_at: null,
    closed_by: null,
    is_deleted: false,
    created_at: at,
    last_updated_at: at,
    last_updated_by: null,
    request_hash: null,
  });
});
const page = (tickets) => Buffer.from(JSON.stringify({ from: 1, to: tickets.length, count: tickets.length, tickets }));
const ways = {
  'revive + mapTicket (before)': () => page(texts.map((t) => mapTicket(reviveTicket(JSON.parse(t))))),
  'mapTicketJson (now)': () => page(texts.map((t) => mapTicketJson(JSON.parse(t)))),
};
if (!ways['revive + mapTicket (before)']().equals(ways['mapTicketJson (now)']())) throw new Error('the two ways answer different bytes');
const N = 3000;
for (let round = 0; round < 5; round++) {
  for (const [name, fn] of Object.entries(ways)) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i++) fn();
    const u = process.cpuUsage(t0);
    console.log(`round ${round + 1} ${name.padEnd(28)} ${((u.user + u.system) / N).toFixed(0)} µs CPU per 100-ticket page`);
  }
}
