import type { JetStreamManager, StreamInfo } from 'nats';

/**
 * The stream sequence through which every durable consumer of `stream` has acknowledged: a message
 * at or below it has been taken by all of them, so a producer need not publish it again after the
 * stream is lost. A consumer with nothing pending and nothing awaiting its ack has taken the whole
 * stream. With no durable consumer nothing waits for any message: the stream's last sequence.
 * Ephemeral consumers (the realtime fan-out) are not counted: they read only what comes after them.
 */
export async function consumedFloor(jsm: JetStreamManager, stream: string, info: StreamInfo): Promise<number> {
  let floor = info.state.last_seq;
  for await (const consumer of jsm.consumers.list(stream)) {
    if (!consumer.config.durable_name) continue;
    const caughtUp = consumer.num_pending === 0 && consumer.num_ack_pending === 0;
    // info was read first: a consumer caught up now has taken at least what info saw.
    floor = Math.min(floor, caughtUp ? info.state.last_seq : consumer.ack_floor.stream_seq);
  }
  return floor;
}
