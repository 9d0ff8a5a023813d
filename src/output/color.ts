// One place decides whether colour is on: --color, then NO_COLOR / FORCE_COLOR, then whether
// the stream is a terminal. Everything that colours text asks here.
import { Chalk, type ChalkInstance } from "chalk";
import type { Context } from "../context.js";

export function colorEnabled(ctx: Context, stream: "stdout" | "stderr" = "stdout"): boolean {
  const mode = ctx.globals.color ?? "auto";
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== "") return false;
  const force = ctx.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return stream === "stdout" ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY;
}

export function colors(ctx: Context, stream: "stdout" | "stderr" = "stdout"): ChalkInstance {
  return new Chalk({ level: colorEnabled(ctx, stream) ? 1 : 0 });
}
