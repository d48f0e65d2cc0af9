/** `partsearch lists …`: approved lists are managed here, outside the API. */
import { loadConfig, loadDotEnv } from '../config.ts';
import { createEngine } from '../adapters.ts';
import { UsageError, type Command } from './args.ts';

const out = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);

export const listsCommand: Command = {
  name: 'lists',
  usage: `partsearch lists show [--account NAME]
partsearch lists import FILE
partsearch lists create --account NAME --name NAME
partsearch lists add --list LIST_ID --part MANUFACTURER/MPN
partsearch lists remove --list LIST_ID --part MANUFACTURER/MPN

FILE is a lists file in the dump format (FORMAT.md). Each imported list replaces the list with the
same id (curated: from its slug; user: from account and name); members that match no part are
reported. Changes apply to the live index version at once.`,
  options: { account: { type: 'string' }, name: { type: 'string' }, list: { type: 'string' }, part: { type: 'string' } },
  allowPositionals: true,
  async run(v, pos) {
    const [sub, file] = pos;
    loadDotEnv();
    const { ListError } = await import('../catalog/lists.ts');
    const { createUserList, editMembers, importLists } = await import('../service/list-admin.ts');
    const { readListsFile } = await import('../../ingest/catalog-files.ts');
    const engine = await createEngine(loadConfig());
    try {
      switch (sub) {
        case 'show': {
          const meta = await engine.meta();
          const lists = (meta?.lists ?? []).filter((l) => !v.account || l.kind === 'curated' || l.account === v.account);
          out(lists.map(({ member_ids: _members, ...l }) => ({ ...l, unmatched: l.unmatched.length })));
          return 0;
        }
        case 'import': {
          if (!file) throw new UsageError('lists import needs FILE');
          const report = await importLists(engine, readListsFile(file));
          out(report);
          const unmatched = report.lists.reduce((a, l) => a + l.unmatched.length, 0);
          if (unmatched) process.stderr.write(`lists: ${unmatched} member(s) match no part (listed under "unmatched")\n`);
          return 0;
        }
        case 'create': {
          if (typeof v.account !== 'string' || typeof v.name !== 'string') throw new UsageError('--account NAME and --name NAME are required');
          const { member_ids: _members, ...l } = await createUserList(engine, v.account, v.name);
          out(l);
          return 0;
        }
        case 'add':
        case 'remove': {
          if (typeof v.list !== 'string' || typeof v.part !== 'string') throw new UsageError('--list LIST_ID and --part MANUFACTURER/MPN are required');
          const { member_ids: _members, ...l } = await editMembers(engine, v.list, sub, v.part);
          out(l);
          return 0;
        }
        default:
          throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'a subcommand is required');
      }
    } catch (e) {
      if (e instanceof ListError) {
        process.stderr.write(`partsearch lists: ${e.message}\n`);
        return 1;
      }
      throw e;
    } finally {
      await engine.close();
    }
  },
};
