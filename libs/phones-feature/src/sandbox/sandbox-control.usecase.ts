import { randomInt } from 'node:crypto';
import { Errors, normalizeChatId, isGroupChatId, type RequestContext } from '@mapi/contracts';
import type { NatsConnection } from 'nats';
import { requirePhone } from '../usecases/phone-queries.usecase';
import { sandboxNotifySubject } from './sandbox-connector';
import { contact, newUniqueId, type DeviceRow, type SandboxNetwork } from './sandbox-network';

type Media = { dimensions: { ar: number; height: number; width: number }; filename: string; mimetype: string; path: string; size: number; thumbnail: string };

/**
 * The sandbox control API: what the network and the people on it do to a sandbox phone. Each change
 * is written to the network's tables first, then the phone's session is nudged over NATS.
 */
export class SandboxControl {
  constructor(
    private readonly network: SandboxNetwork,
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {}

  private notify(phoneId: string, kind: 'state' | 'messages' | 'groups') {
    this.nc.publish(sandboxNotifySubject(this.namespace, phoneId), JSON.stringify({ kind }));
  }

  private async paired(ctx: RequestContext): Promise<DeviceRow & { number: string }> {
    const phoneId = requirePhone(ctx);
    const device = await this.network.device(phoneId);
    if (!device?.number || device.state === 'LOGGED_OUT') throw Errors.phoneUnavailable('The sandbox phone is not paired: scan its QR first (POST /v1/sandbox/phones/scan)');
    return device as DeviceRow & { number: string };
  }

  private view = (d: DeviceRow) => ({ phone_id: d.phone_id, state: d.state, number: d.number || null });

  async scan(ctx: RequestContext, body: { number: string }) {
    const phoneId = requirePhone(ctx);
    const device = await this.network.device(phoneId);
    if (!device || device.state !== 'QR') throw Errors.phoneUnavailable(`The phone shows no QR to scan (state ${device?.state ?? 'not started'})`);
    const next = await this.network.setDevice(phoneId, { state: 'CONNECTED', number: body.number, qr: null });
    this.notify(phoneId, 'state');
    return this.view(next);
  }

  async setState(ctx: RequestContext, body: { state: 'CONNECTED' | 'DISCONNECTED' | 'UNREACHABLE' }) {
    const device = await this.paired(ctx);
    const next = await this.network.setDevice(device.phone_id, { state: body.state });
    this.notify(device.phone_id, 'state');
    return this.view(next);
  }

  async createGroup(ctx: RequestContext, body: { subject: string; participants: string[]; admins: string[]; phone_is_admin: boolean }) {
    const device = await this.paired(ctx);
    const chatId = `1203630${String(randomInt(1e10, 1e11))}${randomInt(0, 10)}@g.us`;
    const members = new Map<string, boolean>([[contact(device.number), body.phone_is_admin]]);
    for (const d of body.participants) if (!members.has(contact(d))) members.set(contact(d), body.admins.includes(d));
    for (const d of body.admins) members.set(contact(d), d === device.number ? body.phone_is_admin : true);
    const participants = [...members].map(([id, admin]) => ({ id, admin }));
    await this.network.saveGroup(chatId, body.subject, participants);
    this.notify(device.phone_id, 'groups');
    return { chat_id: chatId, subject: body.subject, participants };
  }

  async deliver(ctx: RequestContext, body: { chat_id: string; from?: string; from_me: boolean; body: string | null; type: 'chat' | 'image'; media?: Media }) {
    const device = await this.paired(ctx);
    const chatId = normalizeChatId(body.chat_id);
    if (!chatId) throw Errors.validation({ 'body.chat_id': { message: 'chat_id must be a number with optional @c.us, or a group id ending with @g.us' } });
    const me = contact(device.number);
    let sender = me;
    if (isGroupChatId(chatId)) {
      const group = await this.network.group(chatId);
      if (!group || !group.participants.some((p) => p.id === me)) throw Errors.validation({ 'body.chat_id': { message: 'the phone is not a member of this sandbox group' } });
      if (!body.from_me) {
        if (!body.from) throw Errors.validation({ 'body.from': { message: 'from is required for a group message not sent by the phone' } });
        sender = contact(body.from);
      }
    } else if (!body.from_me) {
      sender = chatId;
    }
    if (body.type === 'image' && !body.media) throw Errors.validation({ 'body.media': { message: 'media is required for an image message' } });
    if (body.type === 'chat' && !body.body) throw Errors.validation({ 'body.body': { message: 'body is required for a text message' } });
    const uniqueId = newUniqueId();
    await this.network.addMessage(device.phone_id, {
      chat_id: chatId,
      unique_id: uniqueId,
      from_me: body.from_me,
      sender_phone: sender,
      body: body.body,
      message_type: body.type,
      timestamp: new Date().toISOString(),
      media: body.media ?? null,
      ack: body.from_me ? 1 : 0,
    });
    this.notify(device.phone_id, 'messages');
    return { chat_id: chatId, unique_id: uniqueId, message_id: `${body.from_me}_${chatId}_${uniqueId}` };
  }

  /** Acks move up only (1 server, 2 delivered, 3 read, 4 played); -1 fails a message not yet delivered. */
  async ack(ctx: RequestContext, body: { unique_id: string; ack: number }) {
    const device = await this.paired(ctx);
    const message = await this.network.message(device.phone_id, body.unique_id);
    if (!message) throw Errors.validation({ 'body.unique_id': { message: 'no message with this unique_id on this phone' } });
    if (!message.from_me) throw Errors.validation({ 'body.unique_id': { message: 'acks belong to messages the phone sent (from_me)' } });
    if (body.ack === -1 ? message.ack >= 2 : body.ack <= message.ack) {
      throw Errors.validation({ 'body.ack': { message: `ack ${body.ack} cannot follow ${message.ack}: acks only move up, and -1 only before delivery` } });
    }
    await this.network.setAck(message.id, body.ack);
    this.notify(device.phone_id, 'messages');
    return { unique_id: body.unique_id, ack: body.ack };
  }
}
