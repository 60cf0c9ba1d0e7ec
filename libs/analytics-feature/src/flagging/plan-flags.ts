import { addBusinessMs, type BusinessSchedule } from '../business-hours/business-time';
import type { FlagRuleRow } from './flag-rule-row';
import { orgChatKey, type FlagMessageFact } from './flag-facts';

/** A flag job to arm: the rule, the message, when it is due, and the reason (null for a model rule: the model gives it). */
export interface PlannedFlag {
  org_id: string;
  rule_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  message_at: number;
  due_at: number;
  reason: string | null;
  /** Model rules: the text the model reads (kept on the job until it is done). */
  body: string | null;
}

export interface PlanInput {
  incoming: FlagMessageFact[];
  rules: FlagRuleRow[];
  /** A chat's labels (org + chat key). */
  labels: Map<string, string[]>;
  /** A chat's latest reply (epoch ms; org + chat key). */
  lastOut: Map<string, number>;
  /** Each organization's business hours (absent: waiting rules count wall-clock time). */
  schedules: Map<string, BusinessSchedule>;
  now: number;
  minuteMs: number;
  lateCutoffMs: number;
  /** A model is configured: model rules arm jobs only then. */
  modelOn: boolean;
}

const norm = (s: string) => s.normalize('NFKC').toLowerCase();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first of `keywords` found in `body` as whole words (any case; letters and digits of any script bound a word), or null. */
export function matchKeyword(body: string | null, keywords: readonly string[]): string | null {
  if (!body) return null;
  const text = norm(body);
  for (const k of keywords) {
    const word = norm(k.trim()).replace(/\s+/g, ' ');
    if (!word) continue;
    const pattern = escape(word).replace(/ /g, '\\s+');
    if (new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, 'u').test(text)) return k;
  }
  return null;
}

/**
 * The flag jobs a batch of incoming messages arms (docs/services/analytics.md "Flagging"): for each message
 * not from the phone, not older than FLAG_LATE_CUTOFF_MS when consumed, not answered already (a reply at or
 * after it), sent no sooner than the rule's creation (to the second) and of the rule's phone when it names
 * one: a keyword rule whose word it holds, a label rule whose label its chat carries (due now), a waiting rule
 * (due `minutes` after the message: in the organization's business hours when it has a schedule, as SLA deadlines
 * are, and never when its hours never come; wall-clock otherwise), a model rule when a model is configured and the
 * message has text (due now).
 */
export function planFlags(p: PlanInput): PlannedFlag[] {
  const out: PlannedFlag[] = [];
  for (const m of p.incoming) {
    if (m.from_me || m.at < p.now - p.lateCutoffMs) continue;
    const key = orgChatKey(m);
    if ((p.lastOut.get(key) ?? -Infinity) >= m.at) continue;
    for (const r of p.rules) {
      if (r.org_id !== m.org_id || !r.enabled || (r.phone_id !== null && r.phone_id !== m.phone_id)) continue;
      if (m.at < Math.floor(r.created_at.getTime() / 1000) * 1000) continue;
      const job = {
        org_id: m.org_id,
        rule_id: r.rule_id,
        phone_id: m.phone_id,
        chat_id: m.chat_id,
        message_id: m.message_id,
        message_at: m.at,
        body: null,
      };
      if (r.kind === 'keyword') {
        const word = matchKeyword(m.body, r.keywords);
        if (word !== null) out.push({ ...job, due_at: p.now, reason: `${r.name}: the message says "${word}"` });
      } else if (r.kind === 'label') {
        if (r.label_id !== null && (p.labels.get(key) ?? []).includes(r.label_id))
          out.push({ ...job, due_at: p.now, reason: `${r.name}: the chat is labelled ${r.label_id}` });
      } else if (r.kind === 'waiting') {
        if (r.minutes === null) continue;
        const schedule = p.schedules.get(m.org_id);
        const ms = r.minutes * p.minuteMs;
        const due = schedule ? addBusinessMs(schedule, m.at, ms) : m.at + ms;
        const within = `no reply within ${r.minutes} minutes${schedule ? ' of business hours' : ''}`;
        if (due !== null) out.push({ ...job, due_at: due, reason: `${r.name}: ${within}` });
      } else if (r.kind === 'model') {
        if (p.modelOn && m.body && m.body.trim()) out.push({ ...job, due_at: p.now, reason: null, body: m.body.slice(0, 4000) });
      }
    }
  }
  return out;
}
