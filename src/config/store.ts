// Placeholder with the agreed interface; the auth/config issue (#6) implements it with conf.
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export const CONFIG_KEYS = ["api-url", "repo", "output", "color", "timeout"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export interface ConfigStore {
  readonly path: string;
  get(key: ConfigKey): string | undefined;
  set(key: ConfigKey, value: string): void;
  unset(key: ConfigKey): void;
  list(): Partial<Record<ConfigKey, string>>;
  getToken(apiUrl: string): string | undefined;
  setToken(apiUrl: string, token: string): void;
  deleteToken(apiUrl: string): boolean;
}

export async function openConfig(_ctx: Context): Promise<ConfigStore> {
  throw new MqError("configuration is not implemented yet", ExitCode.INTERNAL);
}
