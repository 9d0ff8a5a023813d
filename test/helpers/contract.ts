// Runs `fn`, which must throw a ContractError, and returns it for the message checks.
import { expect } from "vitest";
import { ContractError } from "../../src/errors.js";

export function contractError(fn: () => unknown): ContractError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ContractError);
    return e as ContractError;
  }
  throw new Error("expected a ContractError");
}
