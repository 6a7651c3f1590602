// A query built and compiled once, then run with new parameter values.
//
// Kysely builds and compiles a query's SQL on every call; for the small
// lookups every public read makes (the wall, its feeds) that costs more
// than SQLite takes to answer them (~15 µs of ~22 µs per lookup, measured
// in docs/performance.md). A query whose only parameters are the call's
// arguments, in order, has the same SQL whatever their values: it is
// compiled on first use per database and reused with the new values.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

export function reusableQuery<A extends readonly (string | number)[], O>(
  build: (db: Kysely<Database>, ...args: A) => Compilable<O>,
): (db: Kysely<Database>, ...args: A) => Promise<O[]> {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<O>>();
  return async (db, ...args) => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db, ...args).compile();
      // the SQL may hold no parameter but the arguments, in their order
      if (query.parameters.length !== args.length || query.parameters.some((p, i) => p !== args[i])) {
        throw new Error(`reusableQuery: the query's parameters must be exactly its arguments (${query.sql})`);
      }
      compiled.set(db, query);
    }
    return (await db.executeQuery<O>({ ...query, parameters: args })).rows;
  };
}
