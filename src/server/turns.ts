// Sharing the server's one thread: simulation in steps, one per event-loop turn, and cold work
// done one request at a time.
import { simulateDaySteps, type SimEvent } from "./simulate/index.js";

/**
 * One simulation step per event-loop turn, first come first served: between two steps the
 * server reads and answers whatever arrived, so a request for a warm repository never waits for
 * more than one simulated day (a few ms) of someone else's cold one.
 */
export class Turns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;
  /** when the step running now got its turn */
  private turnStart = 0;

  /** a day's simulation, a step per turn */
  async simulate(repo: string, seed: number, day: number): Promise<SimEvent[]> {
    return this.run(simulateDaySteps({ repo, seed, day }));
  }

  /**
   * small steps (a lane's facts, 256 facts folded) run for about a millisecond per turn: a lane's
   * facts take a tenth of its events' time, and a turn per lane cost as much again in scheduling
   */
  async steps<T>(steps: Generator<void, T, void>): Promise<T> {
    await this.next();
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      await this.pace();
    }
  }

  /** waits for the next turn when this one has run for SLICE_MS already */
  async pace(): Promise<void> {
    if (performance.now() - this.turnStart >= SLICE_MS) await this.next();
  }

  private async run<T>(steps: Generator<void, T, void>): Promise<T> {
    for (;;) {
      await this.next();
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.tick);
      }
    });
  }

  private readonly tick = () => {
    const resolve = this.waiting.shift();
    if (!resolve) {
      this.scheduled = false;
      return;
    }
    // the waiter's step runs in this turn's microtasks; the next step waits for the next turn
    this.turnStart = performance.now();
    resolve();
    setImmediate(this.tick);
  };
}

/** how long a step of simulation may hold the event loop, in ms, when its steps are smaller (Turns.pace) */
const SLICE_MS = 1;

/** First come, first served: `run` waits for every earlier `run` to finish. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
