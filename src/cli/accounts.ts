/** `partsearch accounts …` and `partsearch keys …`: accounts, credit, subscriptions and API keys. */
import { micros, usd } from '../accounts/billing.ts';
import { CAPABILITIES, type Account, type AccountStore, type ApiKeyInfo, type Capability } from '../accounts/port.ts';
import { loadConfig, loadDotEnv } from '../config.ts';
import { createAccounts } from '../adapters.ts';
import { UsageError, type Command } from './args.ts';

async function withStore<T>(fn: (store: AccountStore, config: ReturnType<typeof loadConfig>) => Promise<T>): Promise<T> {
  loadDotEnv();
  const config = loadConfig();
  const { accounts, throttle, gate } = await createAccounts(config);
  try {
    return await fn(accounts, config);
  } finally {
    await gate.close();
    await accounts.close();
    await throttle.close();
  }
}

const out = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
const showAccount = (a: Account) => ({ id: a.id, name: a.name, subscription: a.subscription, balance_usd: usd(a.balance_micros), created_at: a.created_at });
const showKey = (k: ApiKeyInfo) => ({ ...k });

async function account(store: AccountStore, ref: unknown): Promise<Account> {
  if (typeof ref !== 'string' || !ref) throw new UsageError('--account ID|NAME is required');
  const a = await store.findAccount(ref);
  if (!a) throw new UsageError(`no account "${ref}"`);
  return a;
}

function dollars(v: unknown, flag: string): number {
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+(\.\d+)?$/.test(v) || !Number.isFinite(n))
    throw new UsageError(`${flag} must be a non-negative amount in US dollars, e.g. 5 or 12.50`);
  return n;
}

export function parseCapabilities(v: unknown): Capability[] {
  if (v === undefined) return [...CAPABILITIES];
  const caps = String(v)
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  for (const c of caps) if (!CAPABILITIES.includes(c as Capability)) throw new UsageError(`unknown capability "${c}" (known: ${CAPABILITIES.join(', ')})`);
  if (caps.length === 0) throw new UsageError('--capabilities needs at least one capability');
  return caps as Capability[];
}

export const accountsCommand: Command = {
  name: 'accounts',
  usage: `partsearch accounts create --name NAME [--subscription] [--credit-usd 5] [--key]
partsearch accounts list
partsearch accounts credit --account ID|NAME --add-usd N
partsearch accounts subscription --account ID|NAME on|off

Every new account starts with 5 US dollars of credit unless --credit-usd says otherwise.
--key also creates an API key for it (named "default", every capability), printed once under "key".
Accounts live in SQLite under the data dir, or in Redis when REDIS_URL is set.`,
  options: {
    name: { type: 'string' },
    subscription: { type: 'boolean' },
    'credit-usd': { type: 'string' },
    account: { type: 'string' },
    'add-usd': { type: 'string' },
    key: { type: 'boolean' },
  },
  allowPositionals: true,
  async run(v, pos) {
    const [sub, arg] = pos;
    return withStore(async (store, config) => {
      switch (sub) {
        case 'create': {
          if (typeof v.name !== 'string' || !v.name.trim()) throw new UsageError('--name NAME is required');
          const credit = v['credit-usd'] === undefined ? 5 : dollars(v['credit-usd'], '--credit-usd');
          const a = await store.createAccount({ name: v.name.trim(), subscription: Boolean(v.subscription), credit_micros: micros(credit) });
          if (!v.key) {
            out(showAccount(a));
            return 0;
          }
          const created = await store.createKey({
            account_id: a.id,
            name: 'default',
            capabilities: [...CAPABILITIES],
            rate_limit_per_minute: config.billing.defaultRateLimitPerMinute,
          });
          out({ ...showAccount(a), key: { ...showKey(created.key), key: created.secret } });
          process.stderr.write('Store this key now: it is shown only once.\n');
          return 0;
        }
        case 'list':
          out((await store.listAccounts()).map(showAccount));
          return 0;
        case 'credit': {
          const a = await account(store, v.account);
          out(showAccount(await store.addCredit(a.id, micros(dollars(v['add-usd'], '--add-usd')))));
          return 0;
        }
        case 'subscription': {
          if (arg !== 'on' && arg !== 'off') throw new UsageError('say on or off');
          const a = await account(store, v.account);
          out(showAccount(await store.setSubscription(a.id, arg === 'on')));
          return 0;
        }
        default:
          throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'a subcommand is required');
      }
    });
  },
};

export const keysCommand: Command = {
  name: 'keys',
  usage: `partsearch keys create --account ID|NAME --name NAME [--capabilities parts:read,ai:run] [--rate-limit-per-minute 60]
partsearch keys list [--account ID|NAME]
partsearch keys revoke --id KEY_ID

The key is printed once: only a keyed hash is stored, so a lost key cannot be recovered.
A revoked key gets 401 on its next request.`,
  options: {
    account: { type: 'string' },
    name: { type: 'string' },
    capabilities: { type: 'string' },
    'rate-limit-per-minute': { type: 'string' },
    id: { type: 'string' },
  },
  allowPositionals: true,
  async run(v, pos) {
    const [sub] = pos;
    return withStore(async (store, config) => {
      switch (sub) {
        case 'create': {
          const a = await account(store, v.account);
          if (typeof v.name !== 'string' || !v.name.trim()) throw new UsageError('--name NAME is required');
          const rl = v['rate-limit-per-minute'] === undefined ? config.billing.defaultRateLimitPerMinute : Number(v['rate-limit-per-minute']);
          if (!Number.isInteger(rl) || rl < 1) throw new UsageError('--rate-limit-per-minute must be a positive whole number');
          const created = await store.createKey({
            account_id: a.id,
            name: v.name.trim(),
            capabilities: parseCapabilities(v.capabilities),
            rate_limit_per_minute: rl,
          });
          out({ ...showKey(created.key), key: created.secret });
          process.stderr.write('Store this key now: it is shown only once.\n');
          return 0;
        }
        case 'list': {
          const a = v.account ? await account(store, v.account) : null;
          out((await store.listKeys(a?.id)).map(showKey));
          return 0;
        }
        case 'revoke': {
          if (typeof v.id !== 'string') throw new UsageError('--id KEY_ID is required');
          const k = await store.revokeKey(v.id);
          if (!k) throw new UsageError(`no key "${v.id}"`);
          out(showKey(k));
          return 0;
        }
        default:
          throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'a subcommand is required');
      }
    });
  },
};
