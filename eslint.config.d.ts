// Types of what eslint.config.js exports besides the config (test/query-rule.test.ts reads the list).
export declare const QUERY_STARTS: readonly string[];
declare const config: unknown;
export default config;
