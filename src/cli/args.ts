/** Tiny command framework over node:util parseArgs: every command has a usage and --help (its summary is main.ts's). */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  name: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals?: boolean;
  run(values: Record<string, unknown>, positionals: string[]): Promise<number>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parse(cmd: Command, argv: string[]): { values: Record<string, unknown>; positionals: string[]; help: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...cmd.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: cmd.allowPositionals ?? false,
      strict: true,
    });
    return { values, positionals, help: Boolean(values.help) };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
