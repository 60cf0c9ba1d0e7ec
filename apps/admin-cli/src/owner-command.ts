import { AdminError } from '@mapi/admin-feature';
import { flag, optional, required, str, type Command, type CommandIo, type Values } from './args';

/** The password of --password or --password-stdin (one trailing newline dropped), or undefined: generate one. */
async function passwordOf(values: Values, io: CommandIo): Promise<string | undefined> {
  const given = optional(values, 'password');
  if (values['password-stdin'] === true) {
    if (given !== undefined) throw new AdminError('give --password or --password-stdin, not both');
    return (await io.readStdin()).replace(/\r?\n$/, '');
  }
  return given;
}

export const ownerCommand: Command = {
  usage: 'members:create-owner --org ID --email EMAIL [--password P | --password-stdin] [--name NAME] [--reset]',
  summary:
    "create the organization's owner for the console (a strong password is generated and printed once unless one is given); --reset sets a new password for that owner",
  options: { org: str, email: str, password: str, 'password-stdin': flag, name: str, reset: flag },
  async run(values, admin, io) {
    const orgId = required(values, 'org', '<organization id>');
    const email = required(values, 'email', '<email address>');
    const o = await admin.createOwner.execute({
      orgId,
      email,
      password: await passwordOf(values, io),
      name: optional(values, 'name'),
      reset: values.reset === true,
    });
    const what = o.created
      ? `Created owner ${o.email} (member ${o.member_id}) of organization ${o.org_id}`
      : `Set a new password for owner ${o.email} (member ${o.member_id}) of organization ${o.org_id}; console sessions ended: ${o.sessions_ended}`;
    const password =
      o.password === undefined
        ? ['Password: the one given (not shown).']
        : ['Password (generated; shown only this once, store it now):', '', `  ${o.password}`];
    return { json: o, text: [what, ...password].join('\n') };
  },
};
