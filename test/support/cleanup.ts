/**
 * Runs before every test file (vitest setupFiles): once the file's own afterAll hooks have closed what
 * was open in them, the temporary directories it made (fixtures.ts tempDir) are removed.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './fixtures.ts';

afterAll(removeTempDirs);
