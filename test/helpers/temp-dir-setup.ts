/** Setup file (vitest.config.ts): removes, after all tests of each file, the temporary directories made outside its tests. */
import { afterAll } from 'vitest';
import { removeOutliving } from './temp-dir.js';

afterAll(removeOutliving);
