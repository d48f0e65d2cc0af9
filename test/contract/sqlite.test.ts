import path from 'node:path';
import { createSqliteEngine } from '../../src/engines/sqlite/engine.ts';
import { tempDir } from '../support/fixtures.ts';
import { engineContract } from './engine.contract.ts';

engineContract('sqlite', async () => createSqliteEngine({ file: path.join(tempDir(), 'partsearch.db') }));
