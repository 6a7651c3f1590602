// CLI writes beside a loaded server on one SQLite file: a real `wallery serve`
// takes custom posts (W3) from 8 clients in a loop while `wallery posts …`
// commands moderate the same wall. Every CLI write must go through (it waits
// for the server's write lock), the server never answers 503, and every post
// it acknowledged is stored. The work is bounded by counts, not by time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { importSmallWall, SMALL_WALL } from '../helpers/wall-data.js';

const CLIENTS = 8;
/** posts each client creates at least, and keeps creating until the CLI writes are done */
const POSTS_PER_CLIENT = 10;
/** two CLI processes at a time, so CLI writes also meet each other */
const CLI_LANES = 2;
const CLI_WRITES_PER_LANE = 12;
const ACTIONS = ['pin', 'hide', 'unpin', 'unhide'] as const;

let dir: string;
let db: string;
let server: Instance;

beforeAll(async () => {
  dir = makeTempDir();
  db = await importSmallWall(dir, 8);
  server = await startInstance({ DATABASE_URL: db });
});

afterAll(async () => {
  await server?.stop();
  removeDir(dir);
});

interface Created {
  content: string;
  status: number;
  body: string;
}

async function createPost(content: string): Promise<Created> {
  const res = await fetch(`${server.url}/api/v2/widget/create-post?user_key=${SMALL_WALL.key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallId: SMALL_WALL.wall, content }),
  });
  return { content, status: res.status, body: await res.text() };
}

/** One lane of CLI writes: a moderation action on one of the wall's posts each time. */
async function cliLane(lane: number): Promise<{ args: string[]; result: CliResult }[]> {
  const done: { args: string[]; result: CliResult }[] = [];
  for (let i = 0; i < CLI_WRITES_PER_LANE; i++) {
    // lanes work on different posts; each post goes pin, hide, unpin, unhide
    const post = 1 + lane + CLI_LANES * Math.floor(i / ACTIONS.length);
    const args = ['posts', ACTIONS[i % ACTIONS.length]!, String(SMALL_WALL.wall), String(post), '--database', db];
    done.push({ args, result: await runCli(args) });
  }
  return done;
}

describe('CLI writes beside W3 load on SQLite', () => {
  it('all succeed, W3 never answers 503, every acknowledged post is stored', async () => {
    let cliDone = false;
    const cli = Promise.all(Array.from({ length: CLI_LANES }, (_, lane) => cliLane(lane))).finally(
      () => (cliDone = true),
    );
    const client = async (c: number): Promise<Created[]> => {
      const answers: Created[] = [];
      while (answers.length < POSTS_PER_CLIENT || !cliDone) {
        answers.push(await createPost(`load ${c}-${answers.length}`));
      }
      return answers;
    };
    const [cliWrites, ...perClient] = await Promise.all([cli, ...Array.from({ length: CLIENTS }, (_, c) => client(c))]);

    for (const { args, result } of cliWrites.flat()) {
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const answers = perClient.flat();
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.slice(0, 3), `${refused.length} of ${answers.length} W3 calls failed`).toEqual([]);

    const store: Store = openStore({ kind: 'sqlite', path: db });
    try {
      const stored = await store.db
        .selectFrom('posts')
        .select('content')
        .where('wall_id', '=', SMALL_WALL.wall)
        .where('content', 'like', 'load %')
        .execute();
      expect(new Set(stored.map((p) => p.content))).toEqual(new Set(answers.map((a) => a.content)));
      // each CLI write committed with its audit entry
      const audited = await store.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('token_name', '=', 'cli')
        .executeTakeFirstOrThrow();
      expect(Number(audited.n)).toBe(CLI_LANES * CLI_WRITES_PER_LANE);
      // every post went pin, hide, unpin, unhide: back where it started
      const moderated = await store.db
        .selectFrom('posts')
        .select(['id', 'pin', 'hidden'])
        .where('id', '<=', 8)
        .orderBy('id')
        .execute();
      expect(moderated.every((p) => p.pin === 0 && p.hidden === 0)).toBe(true);
    } finally {
      await store.close();
    }
  }, 900_000);
});
