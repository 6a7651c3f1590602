// The daily call quota (contract §3) behind one interface: counted in the
// store (default) or in Redis (several instances), same decisions either way.

export interface QuotaDecision {
  allowed: boolean;
  /** calls counted for the account today, including this one when allowed */
  used: number;
}

export interface QuotaCounter {
  /** where the counts live */
  readonly backend: 'store' | 'redis';
  /** Counts one call for the account's UTC day unless `limit` is spent. */
  consume(accountId: number, day: number, limit: number): Promise<QuotaDecision>;
  /**
   * The same, answered at once from what this instance holds in memory; null
   * when only `consume` can tell (then nothing was counted). Optional.
   */
  tryConsume?(accountId: number, day: number, limit: number): QuotaDecision | null;
  /**
   * Today's calls of the account as this counter knows them, given the
   * store's total (`stored`): the calls answered, without the ones this
   * instance reserved ahead and has not answered yet (store), or the live
   * shared count (Redis), which the store's copy trails by seconds.
   */
  todayCalls(accountId: number, day: number, stored: number): Promise<number>;
  /** true when the counter's backend answers */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
