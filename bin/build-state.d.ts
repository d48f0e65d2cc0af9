// Types of build-state.js (plain JavaScript: it runs before anything is compiled).
export declare const BUILD_FILE: string;
export declare function sourceSnapshot(root: string): Record<string, string>;
export declare function isSourceCheckout(root: string): boolean;
export declare function buildState(root: string): { state: 'fresh' | 'missing' } | { state: 'stale'; changed: string };
