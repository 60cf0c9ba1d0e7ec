// Group shapes that the sandbox network and its groups both name: here, below both, so that neither
// imports the other for a type.
import type { Prisma } from '@mapi/db';

export type GroupParticipants = { id: string; admin: boolean }[];
export type SandboxGroupRow = Omit<Prisma.SandboxGroupModel, 'participants'> & { participants: GroupParticipants };
