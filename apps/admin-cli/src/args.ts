import type { ParseArgsConfig } from 'node:util';
import { AdminError, type AdminUseCases } from '@mapi/admin-feature';

export type Values = Record<string, string | boolean | undefined>;

export interface Output {
  /** Printed with --json: one object. */
  json: object;
  /** Printed otherwise. */
  text: string;
}

export interface Command {
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(values: Values, admin: AdminUseCases, io: CommandIo): Promise<Output>;
}

/** What a command may read besides its options. */
export interface CommandIo {
  /** The whole of standard input (read only when a command asks, e.g. --password-stdin). */
  readStdin(): Promise<string>;
  /** A progress line for a person (stderr; not printed with --json). */
  progress?(line: string): void;
}

export const str = { type: 'string' } as const;
export const flag = { type: 'boolean' } as const;

export function required(values: Values, name: string, hint: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new AdminError(`missing --${name} ${hint}`);
  return value;
}

export function optional(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}
