// Runs before each test file (vitest setupFiles). afterAll hooks run last-registered first, so this
// one, registered before the file's own, removes the file's temp folders after its servers and
// processes are closed.
import { afterAll } from "vitest";
import { removeTempDirs } from "./tmp.js";

afterAll(() => removeTempDirs());
