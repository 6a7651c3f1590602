// A worker's end of the IPC channel to the primary: questions with answers
// (matched by id) and the messages the primary sends of its own accord.
import type { PrimaryMessage, WorkerMessage } from './messages.js';
import { isPrimaryMessage } from './messages.js';

type Question = Extract<WorkerMessage, { id: number }>;
type Answer = Extract<PrimaryMessage, { id: number }>;
/** a question without its id, which `ask` adds */
type Unnumbered<Q> = Q extends { id: number } ? Omit<Q, 'id'> : never;

/** how long an answer may take before the question fails (the primary is gone or stuck) */
const ANSWER_TIMEOUT_MS = 10_000;

export class WorkerChannel {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(answer: Answer): void; reject(err: Error): void }>();
  private readonly handlers = new Map<string, (message: PrimaryMessage) => void>();

  constructor(private readonly proc: NodeJS.Process = process) {
    proc.on('message', (message: unknown) => {
      if (!isPrimaryMessage(message)) return;
      // the primary's own questions carry ids of its own: never an answer to one of ours
      const asked =
        'id' in message && message.wallery !== 'quota-recall' && message.wallery !== 'metrics-collect'
          ? this.waiting.get(message.id)
          : undefined;
      if (asked) {
        this.waiting.delete((message as Answer).id);
        asked.resolve(message as Answer);
        return;
      }
      this.handlers.get(message.wallery)?.(message);
    });
  }

  /** Handles the primary's messages of this kind (one handler a kind). */
  on<K extends PrimaryMessage['wallery']>(
    kind: K,
    handler: (message: Extract<PrimaryMessage, { wallery: K }>) => void,
  ) {
    this.handlers.set(kind, handler as (message: PrimaryMessage) => void);
  }

  /** Sends without waiting for an answer; resolves once the message left (so that an exit does not lose it). */
  send(message: WorkerMessage): Promise<void> {
    return new Promise((resolve) => {
      if (!this.proc.connected || !this.proc.send) return resolve();
      this.proc.send(message, undefined, {}, () => resolve());
    });
  }

  /** Asks the primary; the answer of the same id. */
  ask<Q extends Question>(question: Unnumbered<Q>): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      if (!this.proc.connected || !this.proc.send) return reject(new Error('cluster: no channel to the primary'));
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`cluster: the primary did not answer ${question.wallery} in time`));
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject,
      });
      this.proc.send({ ...question, id });
    });
  }
}
