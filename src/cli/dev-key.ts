/**
 * The development key of a data dir: what `partsearch start` (and `serve --dev-key`) hands the user so
 * that the first curl works. It belongs to account "local" (created with a subscription when missing)
 * and is kept in `<data dir>/dev-key` (mode 600), because the store keeps only a keyed hash of it: the
 * file is how the next start can print it again. A key in the file that no longer authenticates
 * (revoked, or the accounts now live in another store, e.g. REDIS_URL was set) is replaced.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CAPABILITIES, type AccountStore } from '../accounts/port.ts';
import type { Config } from '../config.ts';

export const DEV_KEY_FILE = 'dev-key';
export const DEV_ACCOUNT = 'local';

export interface DevKey {
  secret: string;
  file: string;
  /** What happened: the file's key was kept, or a new one made (`replaced`: the file held one that no longer works). */
  outcome: 'kept' | 'created' | 'replaced';
  /** Whether account "local" was created for it. */
  accountCreated: boolean;
}

export function devKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, DEV_KEY_FILE);
}

/** The key in the file, or null when there is none. */
function readKeyFile(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Writes the key readable by its owner only; replaced in one rename, so a reader never sees half a key. */
function writeKeyFile(file: string, secret: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${secret}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600); // the mode of writeFileSync is filtered by the umask
  fs.renameSync(tmp, file);
}

export async function ensureDevKey(accounts: AccountStore, config: Pick<Config, 'dataDir' | 'billing'>): Promise<DevKey> {
  const file = devKeyFile(config);
  const existing = readKeyFile(file);
  if (existing && (await accounts.authenticate(existing))) return { secret: existing, file, outcome: 'kept', accountCreated: false };
  let account = await accounts.findAccount(DEV_ACCOUNT);
  const accountCreated = !account;
  account ??= await accounts.createAccount({ name: DEV_ACCOUNT, subscription: true });
  const { secret } = await accounts.createKey({
    account_id: account.id,
    name: 'development',
    capabilities: [...CAPABILITIES],
    rate_limit_per_minute: config.billing.defaultRateLimitPerMinute,
  });
  writeKeyFile(file, secret);
  return { secret, file, outcome: existing ? 'replaced' : 'created', accountCreated };
}
