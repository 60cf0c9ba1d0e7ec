import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFsStorage } from '@mapi/storage';
import { proto, type WAMessage } from 'baileys';
import pino from 'pino';
import { setup, tick } from './fixtures/connector-harness';
import * as f from './fixtures/library-events';
import { ReceivedMediaStore } from './received-media';

// The media download is the network: the library's downloadMediaMessage is replaced, everything else is real.
jest.mock('baileys', () => ({ ...jest.requireActual('baileys'), downloadMediaMessage: jest.fn() }));
const { downloadMediaMessage } = require('baileys') as { downloadMediaMessage: jest.Mock };

const ORG = '5d2c4a0e-8a4f-4b8e-9a51-0f6f2b1c3d4e';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until the connector has emitted `count` events of that name (a loaded machine may take a while). */
async function emitted(t: ReturnType<typeof setup>, name: 'messages.upsert', count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (t.of(name).length < count && Date.now() < deadline) await wait(10);
}

describe('BaileysConnector: history sync media', () => {
  const root = mkdtempSync(join(tmpdir(), 'baileys-history-media-'));
  const storage = new LocalFsStorage(root);
  const media = new ReceivedMediaStore(storage, 'https://api.example.com', 10_000, pino({ level: 'silent' }));
  const storeMedia = (msg: WAMessage, chatId: string, reupload: (m: WAMessage) => Promise<WAMessage>) =>
    media.store(msg, ORG, chatId, reupload);
  let inFlight = 0;
  let maxInFlight = 0;
  let delayMs = 15;

  beforeEach(() => {
    inFlight = 0;
    maxInFlight = 0;
    delayMs = 15;
    downloadMediaMessage
      .mockReset()
      .mockImplementation(
        async (msg: WAMessage, _type: string, _opts: unknown, ctx: { reuploadRequest: (m: WAMessage) => Promise<WAMessage> }) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          try {
            await wait(delayMs);
            // H2's link expired: the phone is asked to re-upload, and the download still fails
            if (msg.key.id === 'H2') {
              await ctx.reuploadRequest(msg);
              throw new Error('410 gone');
            }
            return Buffer.from(`bytes of ${msg.key.id}`);
          } finally {
            inFlight--;
          }
        },
      );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('downloads history media into the media storage, at most N at once; failures keep the message', async () => {
    const t = setup({ deps: { storeMedia, mediaConcurrency: 2 } });
    await t.open();
    t.sock().emit('messaging-history.set', f.historyWithMedia);
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    await emitted(t, 'messages.upsert', 2);

    const [backfill, live] = t.of('messages.upsert');
    expect(backfill.type).toBe('append');
    const byId = Object.fromEntries(backfill.messages.map((m) => [m.unique_id, m]));
    expect(Object.keys(byId)).toEqual(['H1', 'H2', 'H3', 'H4', 'H5', '3EB0AAAA0010']);
    expect(byId.H1.media?.path).toBe(`https://api.example.com/app/media/message-media/${ORG}/15550000002%40c.us/H1/H1.jpg`);
    expect(readFileSync(join(root, 'message-media', ORG, '15550000002@c.us', 'H4', 'H4.jpg'), 'utf8')).toBe('bytes of H4');
    // failed (after a re-upload request) and too large: metadata kept, no link
    expect(byId.H2.media).toMatchObject({ path: '', size: 2_000, mimetype: 'image/jpeg' });
    expect(t.sock().reuploads).toEqual(['H2']);
    expect(byId.H3.media).toMatchObject({ path: '', size: 50_000_000 });
    expect(downloadMediaMessage.mock.calls.map((c) => (c[0] as WAMessage).key.id)).toEqual(['H1', 'H2', 'H4']);
    expect(maxInFlight).toBe(2);
    // a live message after the history set waits for it (library order)
    expect(live).toMatchObject({ type: 'notify', messages: [{ unique_id: '3EB0AAAA0001' }] });
  });

  it('BAILEYS_HISTORY_MEDIA=false: history media keeps its metadata only; live media is still stored', async () => {
    const t = setup({ deps: { storeMedia, historyMedia: false } });
    await t.open();
    t.sock().emit('messaging-history.set', f.historyWithMedia);
    const liveImage = f.historyWithMedia.messages[0];
    t.sock().emit('messages.upsert', { messages: [{ ...liveImage, key: { ...liveImage.key, id: 'L1' } }], type: 'notify' });
    await emitted(t, 'messages.upsert', 2);
    const [backfill, live] = t.of('messages.upsert');
    expect(backfill.messages.filter((m) => m.media).map((m) => m.media?.path)).toEqual(['', '', '', '']);
    expect(live.messages[0].media?.path).toContain('/app/media/message-media/');
    expect(downloadMediaMessage).toHaveBeenCalledTimes(1);
  });

  it('an on-demand history page is returned with its media stored, even when storing takes longer than the page timeout', async () => {
    delayMs = 250;
    const t = setup({ deps: { storeMedia, historyTimeoutMs: 100 } });
    await t.open();
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    await tick();
    const pending = t.connector.fetchMessageHistory('15550000002@c.us', 3);
    while (!t.sock().historyRequests.length) await tick();
    const page = f.historyWithMedia.messages.slice(0, 1);
    t.sock().emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: page,
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
      peerDataRequestSessionId: 'req-1',
    });
    const fetched = await pending;
    expect(fetched.map((m) => [m.unique_id, m.media?.path])).toEqual([
      ['H1', `https://api.example.com/app/media/message-media/${ORG}/15550000002%40c.us/H1/H1.jpg`],
    ]);
    expect(t.sock().historyRequests.map((r) => (r.key as { id: string }).id)).toEqual(['3EB0AAAA0001', 'H1']);
  });
});

describe('BaileysConnector: reactions and polls', () => {
  it('live reactions and decrypted poll votes → messages.update (reaction; the poll’s whole tally)', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('contacts.upsert', [{ id: f.BOB_PN, lid: f.BOB_LID }]);
    t.sock().emit('messages.upsert', { messages: [f.pollFromAlice], type: 'notify' });
    await tick();
    // the library finds the poll (and the secret its votes are encrypted with) through getMessage
    expect(t.getMessage('3EB0AAAA0010')).toMatchObject({ message: { messageContextInfo: { messageSecret: expect.anything() } } });
    t.sock().emit('messages.update', f.pollVotes);
    t.sock().emit('messages.update', f.pollVoteChanged);
    t.sock().emit('messages.reaction', f.reactions);
    await tick();
    const [votes, changed, reactions] = t.of('messages.update');
    expect(votes.map((c) => c.poll_results?.map((o) => o.voters.length))).toEqual([
      [1, 1, 0],
      [1, 2, 0],
    ]);
    expect(changed).toEqual([
      {
        chat_id: f.GROUP,
        unique_id: '3EB0AAAA0010',
        from_me: false,
        poll_results: [
          { name: 'office', voters: [] },
          { name: 'park', voters: ['15550000001@c.us'] },
          { name: 'home', voters: ['15550000003@c.us'] },
        ],
      },
    ]);
    expect(reactions.map((c) => [c.unique_id, c.reaction?.sender_phone, c.reaction?.reaction])).toEqual([
      ['3EB0AAAA0006', '15550000003@c.us', '❤️'],
      ['3EB0AAAA0001', '15550000001@c.us', ''],
    ]);
  });

  it('a history sync hands on the reactions and poll votes its messages carry, after the messages', async () => {
    const t = setup({ deps: { historyMedia: false } });
    await t.open();
    t.sock().emit('messaging-history.set', f.historyWithMedia);
    await tick();
    expect(t.events.filter((e) => e.event.startsWith('messages.')).map((e) => e.event)).toEqual(['messages.upsert', 'messages.update']);
    const [changes] = t.of('messages.update');
    expect(changes).toEqual([
      expect.objectContaining({ unique_id: 'H5', reaction: expect.objectContaining({ reaction: '👍', sender_phone: '15550000001@c.us' }) }),
      expect.objectContaining({
        unique_id: '3EB0AAAA0010',
        poll_results: [
          { name: 'office', voters: [] },
          { name: 'park', voters: [] },
          { name: 'home', voters: ['15550000003@c.us'] },
        ],
      }),
    ]);
  });
});
