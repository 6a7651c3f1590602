// A background pass that runs one at a time: a kick while it runs asks for
// one more pass after it (however many kicks came meanwhile), so work that
// arrived during a pass is never left for the next tick. Errors are logged,
// never thrown to whoever kicked.

export class OnePassAtATime {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
    /** no further pass once this says so (stopping) */
    private readonly stopped: () => boolean = () => false,
  ) {}

  /** Starts a pass unless one runs (then it runs once more after it); resolves when no pass is due. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again && !this.stopped());
      } catch (err) {
        this.onError(err);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** The pass under way, if any (to wait for it before stopping or running one by hand). */
  get current(): Promise<void> | null {
    return this.running;
  }
}
