import { randomInt } from 'node:crypto';
import type { SandboxGroupRequest } from '@mapi/contracts';
import { contact } from '../../sandbox/sandbox-network';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/groups: a group on the network with the paired phone as a member (an admin unless phone_is_admin is false). */
export class SandboxCreateGroup {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxGroupRequest) {
    const device = await this.sandbox.paired(ctx);
    const chatId = `1203630${String(randomInt(1e10, 1e11))}${randomInt(0, 10)}@g.us`;
    const members = new Map<string, boolean>([[contact(device.number), body.phone_is_admin]]);
    for (const d of body.participants) if (!members.has(contact(d))) members.set(contact(d), body.admins.includes(d));
    for (const d of body.admins) members.set(contact(d), d === device.number ? body.phone_is_admin : true);
    const participants = [...members].map(([id, admin]) => ({ id, admin }));
    await this.sandbox.network.saveGroup(chatId, body.subject, participants);
    this.sandbox.notify(device.phone_id, 'groups');
    return { chat_id: chatId, subject: body.subject, participants };
  }
}
