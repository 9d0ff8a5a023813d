// The API contract: one set of zod schemas for the client and the bundled server. Heavy (zod):
// import it with `await import(...)` from commands.
export * from "./common.js";
export * from "./events.js";
export * from "./params.js";
export * from "./stats.js";
export * from "./errors.js";
