'use strict';
/**
 * What was measured: the commit checked out and a fingerprint of the built files on the ingestion
 * path (other engineers rebuild while benches run; an uncommitted change shows as a dist hash that
 * differs between two result files of the same commit). Read-only: no git command that writes.
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..', '..');
const FILES = [
  'libs/chats-feature/dist/ingest/apply-ingest.usecase.js',
  'libs/chats-feature/dist/ingest/ingest-consumer.js',
  'libs/events/dist/jetstream.js',
  'libs/events/dist/outbox.js',
  'libs/phones-feature/dist/sandbox/sandbox-network.js',
  'libs/phones-feature/dist/sandbox/sandbox-connector.js',
  'libs/phones-feature/dist/sessions/session-manager.js',
];

function buildInfo() {
  let head = null;
  try {
    head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    /* not a checkout */
  }
  const dist = {};
  for (const f of FILES) {
    try {
      const full = path.join(ROOT, f);
      dist[f] = {
        built: fs.statSync(full).mtime.toISOString(),
        sha1: createHash('sha1').update(fs.readFileSync(full)).digest('hex').slice(0, 10),
      };
    } catch {
      dist[f] = null;
    }
  }
  return { head, dist };
}

module.exports = { buildInfo };
