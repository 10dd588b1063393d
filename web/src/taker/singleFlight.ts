/**
 * One run at a time of a repeated pass (sending a queue): a call while a run is going asks it for one
 * more pass and shares its promise, so a burst of calls never sends twice at once and none is lost.
 * `pass` answers whether to go on (false: stop, e.g. offline); `after` runs when the passes ran out.
 */
export class SingleFlight {
  private running: Promise<void> | null = null;
  private asked = false;

  constructor(
    private readonly pass: () => Promise<boolean>,
    private readonly after: () => Promise<void> = async () => {},
  ) {}

  run(): Promise<void> {
    if (this.running) {
      this.asked = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.asked = false;
      if (!(await this.pass())) return;
    } while (this.asked);
    await this.after();
  }
}
