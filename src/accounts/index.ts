/** The account layer: ports, the SQLite and Redis account stores, and the memory and Redis throttles. */
export * from './port.ts';
export { createSqliteAccountStore } from './sqlite/store.ts';
export { createRedisAccountStore } from './redis/store.ts';
export { createMemoryThrottle, type MemoryThrottle } from './memory-throttle.ts';
export { createRedisThrottle } from './redis/throttle.ts';
export { createGate, type Admission, type AdmitRequest, type Gate } from './gate.ts';
export { createRedisGate } from './redis/gate.ts';
export { KEY_PREFIX, displayPrefix, generateKeySecret, hashKey, looksLikeKey } from './keys.ts';
export { DEFAULT_CREDIT_MICROS, DuplicateAccountNameError, UnknownAccountError } from './validate.ts';
