import { ChatTurns } from './chat-turns';

const tick = () => new Promise((r) => setImmediate(r));

describe("per-chat turns among a phone's sends in flight", () => {
  it('lets jobs of other chats pass, and a chat’s jobs one at a time in seq order even when handed over out of order', async () => {
    const turns = new ChatTurns();
    const order: string[] = [];
    const run = async (chat: string, seq: number, id: string, hold: Promise<void>) => {
      const turn = await turns.take(chat, seq, id);
      order.push(`start ${id}`);
      await hold;
      order.push(`end ${id}`);
      turn.done(false);
    };
    let releaseA!: () => void;
    const a = new Promise<void>((r) => (releaseA = r));
    // b (seq 3) arrives before a (seq 1), both chat x; c is another chat
    const pb = run('x', 3, 'b', Promise.resolve());
    const pa = run('x', 1, 'a', a);
    const pc = run('y', 2, 'c', Promise.resolve());
    await tick();
    await tick();
    expect(order).toEqual(['start a', 'start c', 'end c']); // b waits for a; c passed
    releaseA();
    await Promise.all([pa, pb, pc]);
    expect(order).toEqual(['start a', 'start c', 'end c', 'end a', 'start b', 'end b']);
    expect(turns.size).toBe(0);
  });

  it('never starts a job while another of its chat is under way, even one numbered after it', async () => {
    const turns = new ChatTurns();
    const later = await turns.take('x', 6, 'b'); // reached BullMQ first, under way
    let started = false;
    const earlier = turns.take('x', 5, 'a').then((t) => ((started = true), t));
    await tick();
    await tick();
    expect(started).toBe(false);
    later.done(false);
    (await earlier).done(false);
    expect(started).toBe(true);
    expect(turns.size).toBe(0);
  });

  it('names a put-back job to the later jobs of its chat until it is taken again or forgotten', async () => {
    const turns = new ChatTurns();
    const first = await turns.take('x', 1, 'a');
    const later = turns.take('x', 2, 'b');
    const other = await turns.take('y', 3, 'c');
    expect(other.behindPutBack).toEqual([]);
    first.done(true); // a went back to the queue
    const b = await later;
    expect(b.behindPutBack).toEqual(['a']);
    b.done(true); // so b goes back too
    const e = await turns.take('x', 5, 'e');
    expect(e.behindPutBack).toEqual(['a', 'b']);
    e.done(true);
    // a is taken again: it no longer holds its chat back, b (still away) does
    const again = await turns.take('x', 1, 'a');
    expect(again.behindPutBack).toEqual([]);
    again.done(false);
    turns.forget('x', ['b']); // b is no longer queued (purged)
    turns.forget('x', ['e']);
    const f = await turns.take('x', 6, 'f');
    expect(f.behindPutBack).toEqual([]);
    f.done(false);
    expect(turns.size).toBe(1); // y's c is still in flight
    other.done(false);
    expect(turns.size).toBe(0);
  });
});
