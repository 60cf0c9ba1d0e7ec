import { getAggregateVotesInPollMessage } from 'baileys';
import { historyReactions, isPollCreation, toReactionChanges, type MapContext } from './baileys-mapping';
import * as f from './fixtures/library-events';
import { LidMap } from './lid-map';
import { PollTally } from './poll-tally';

const ctx = (): MapContext => {
  const lids = new LidMap();
  lids.learn(f.BOB_LID, f.BOB_PN);
  return { me: f.ME, lids };
};

describe('Baileys mapping: reactions', () => {
  it('messages.reaction → a change of the message reacted to (sender by phone number; "" = taken back)', () => {
    expect(toReactionChanges(f.reactions, ctx())).toEqual([
      {
        chat_id: f.GROUP,
        unique_id: '3EB0AAAA0006',
        from_me: true,
        reaction: { reaction_id: 'R1', sender_phone: '15550000003@c.us', reaction: '❤️', timestamp: '2026-01-01T00:00:50.000Z' },
      },
      {
        chat_id: '15550000002@c.us',
        unique_id: '3EB0AAAA0001',
        from_me: false,
        reaction: { reaction_id: 'R2', sender_phone: '15550000001@c.us', reaction: '', timestamp: '2026-01-01T00:00:51.000Z' },
      },
    ]);
  });

  it('a LID sender whose number is unknown stays a LID; a reaction without a target is dropped', () => {
    const [c] = toReactionChanges(f.reactions.slice(0, 1), { me: f.ME, lids: new LidMap() });
    expect(c.reaction?.sender_phone).toBe('99887766554433@lid');
    expect(toReactionChanges([{ key: { remoteJid: f.ALICE }, reaction: { text: 'x' } }], ctx())).toEqual([]);
  });

  it('reactions carried by a history-synced message', () => {
    const h5 = f.historyWithMedia.messages[4];
    expect(historyReactions(h5, ctx())).toEqual([
      {
        chat_id: '15550000002@c.us',
        unique_id: 'H5',
        from_me: false,
        reaction: { reaction_id: 'R9', sender_phone: '15550000001@c.us', reaction: '👍', timestamp: '2025-12-31T23:58:30.000Z' },
      },
    ]);
    expect(historyReactions(f.textFromAlice, ctx())).toEqual([]);
  });
});

describe('Baileys mapping: polls', () => {
  it('tallies decrypted votes with the library (a later vote replaces the voter’s earlier one)', () => {
    const polls = new PollTally();
    polls.remember(f.textFromAlice);
    polls.remember(f.pollFromAlice);
    expect(isPollCreation(f.pollFromAlice)).toBe(true);
    expect(polls.get('3EB0AAAA0001')).toBeUndefined();
    expect(polls.get('3EB0AAAA0010')?.message?.messageContextInfo?.messageSecret).toBeDefined();

    const first = f.pollVotes.map((u) => polls.vote(u.key, u.update.pollUpdates ?? [], ctx()));
    expect(first[1]).toEqual({
      chat_id: f.GROUP,
      unique_id: '3EB0AAAA0010',
      from_me: false,
      poll_results: [
        { name: 'office', voters: ['15550000003@c.us'] },
        { name: 'park', voters: ['15550000003@c.us', '15550000001@c.us'] },
        { name: 'home', voters: [] },
      ],
    });
    const changed = polls.vote(f.pollVoteChanged[0].key, f.pollVoteChanged[0].update.pollUpdates ?? [], ctx());
    expect(changed?.poll_results).toEqual([
      { name: 'office', voters: [] },
      { name: 'park', voters: ['15550000001@c.us'] },
      { name: 'home', voters: ['15550000003@c.us'] },
    ]);
    // the same tally as the library's own aggregation of the poll it keeps
    const poll = polls.get('3EB0AAAA0010');
    expect(getAggregateVotesInPollMessage({ message: poll?.message, pollUpdates: poll?.pollUpdates }).map((o) => o.voters.length)).toEqual([
      0, 1, 1,
    ]);
  });

  it('votes on a poll this session does not know give no change', () => {
    expect(new PollTally().vote(f.pollFromAlice.key, f.pollVotes[0].update.pollUpdates ?? [], ctx())).toBeNull();
  });

  it('a history-synced poll keeps the votes it carries', () => {
    const polls = new PollTally();
    const synced = f.historyWithMedia.messages[5];
    polls.remember(synced);
    polls.remember(f.pollFromAlice); // seen again without votes: the votes stay
    expect(polls.tally(polls.get('3EB0AAAA0010') ?? synced, ctx()).poll_results).toEqual([
      { name: 'office', voters: [] },
      { name: 'park', voters: [] },
      { name: 'home', voters: ['15550000003@c.us'] },
    ]);
  });
});
