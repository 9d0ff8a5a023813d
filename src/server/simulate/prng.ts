// A small seeded PRNG for the simulation. Math.random cannot be seeded, and the bundled server
// promises byte-identical histories for the same seed, repository, --now and --days.

/** 32-bit FNV-1a followed by a murmur3 finaliser: spreads similar names ("a/b", "a/c") apart. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX_CODES = Uint16Array.from("0123456789abcdef", (ch) => ch.charCodeAt(0));
const UUID_CODES = new Uint16Array(36);
const SHA_CODES = new Uint16Array(40);

/** sfc32: fast, 128 bits of state, good enough statistics for a simulation. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** picks by weight: [[value, weight], ...] */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    // index loops: destructuring each pair allocated on every call
    let total = 0;
    for (let i = 0; i < items.length; i++) total += items[i]![1];
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= items[i]![1];
      if (r < 0) return items[i]![0];
    }
    return items[items.length - 1]![0];
  }

  /** exponential with the given mean */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** log-normal around `median` with spread `sigma` */
  logNormal(median: number, sigma: number): number {
    // Box-Muller
    const u = 1 - this.next();
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }

  /** Poisson-distributed count (Knuth for small means, normal approximation above) */
  poisson(mean: number): number {
    if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.logNormalZ()));
    const l = Math.exp(-mean);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.next();
    } while (p > l);
    return k - 1;
  }

  private logNormalZ(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** a version-4 uuid drawn from this stream */
  uuid(): string {
    // one hex digit a draw, int(0, 15) being the draw's top four bits; built in one string (a
    // string grown a character at a time left ~36 pieces of garbage per uuid)
    const c = UUID_CODES;
    for (let i = 0, j = 0; i < 32; i++, j++) {
      let n = this.u32() >>> 28;
      if (i === 12) n = 4;
      if (i === 16) n = 8 + (n & 3);
      c[j] = HEX_CODES[n]!;
      if (i === 7 || i === 11 || i === 15 || i === 19) c[++j] = 45; // "-"
    }
    return String.fromCharCode.apply(null, c as unknown as number[]);
  }

  hex(length: number): string {
    const c = length === 40 ? SHA_CODES : new Uint16Array(length);
    for (let i = 0; i < length; i++) c[i] = HEX_CODES[this.u32() >>> 28]!;
    return String.fromCharCode.apply(null, c as unknown as number[]);
  }

  /** a copy of the stream where it is now: its next draws, drawn again later (a uuid made only if needed) */
  snapshot(): Rng {
    const copy = Object.create(Rng.prototype) as Rng;
    copy.a = this.a;
    copy.b = this.b;
    copy.c = this.c;
    copy.d = this.d;
    return copy;
  }

  /** advances the stream as `n` draws would (a hex digit each: hex(n) whose text is not needed) */
  skip(n: number): void {
    // u32's steps on locals (a sha's 40 draws per pull request in simulateDayFacts)
    let { a, b, c, d } = this;
    for (let i = 0; i < n; i++) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
    }
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
  }
}
