// Colour as chalk: whether it is on is the I/O object's rule (ctx.io.colorEnabled); this module
// only turns that answer into a chalk instance, so chalk loads only where text is coloured.
import { Chalk, type ChalkInstance } from "chalk";
import type { IOStreams } from "./iostreams.js";

export function colors(io: Pick<IOStreams, "colorEnabled">, stream: "stdout" | "stderr" = "stdout"): ChalkInstance {
  return new Chalk({ level: io.colorEnabled(stream) ? 1 : 0 });
}
