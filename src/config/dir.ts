// Where mq's local state lives: the config folder, and the home folder it falls back on. One home
// for these rules, so no command ever writes a token to a folder relative to wherever it runs.
import { isAbsolute, join } from "node:path";
import { ConfigError, UsageError } from "../errors.js";

export type Env = Record<string, string | undefined>;

const NO_HOME_HINT = "set HOME to your home folder, or MQ_CONFIG_DIR to the folder of mq's config.json";

/**
 * The account's home folder: $HOME when it is an absolute path, else the home the system's user
 * database gives (os.userInfo(), which ignores $HOME). A relative $HOME is ignored with a warning
 * (it would put files under the working folder); no home at all is a ConfigError (exit 7).
 */
export function homeDir(env: Env, warn: (message: string) => void): string {
  const home = env.HOME;
  if (home !== undefined && home !== "") {
    if (isAbsolute(home)) return home;
    warn(`mq: warning: HOME is a relative path ('${home}'); ignored, using the account's home folder`);
  }
  let fromSystem: string | undefined;
  try {
    // node:os when it is needed, not at every start (~0.5 ms of CPU to load)
    fromSystem = process.getBuiltinModule("node:os").userInfo().homedir;
  } catch {
    // no entry for this user in the system's user database (a container's arbitrary uid)
  }
  if (fromSystem !== undefined && fromSystem !== "" && isAbsolute(fromSystem)) return fromSystem;
  throw new ConfigError("no home folder: HOME is not set and the system names none for this user", NO_HOME_HINT);
}

/**
 * The config folder: $MQ_CONFIG_DIR (an absolute path: a relative one is refused, exit 2), else
 * $XDG_CONFIG_HOME/mq (the XDG Base Directory spec says a relative value is invalid and is to be
 * ignored: ignored with a warning), else HOME/.config/mq.
 */
export function configDirFrom(env: Env, warn: (message: string) => void): string {
  const own = env.MQ_CONFIG_DIR;
  if (own !== undefined && own !== "") {
    if (!isAbsolute(own)) throw new UsageError(`MQ_CONFIG_DIR must be an absolute path, not '${own}'`);
    return own;
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== "") {
    if (isAbsolute(xdg)) return join(xdg, "mq");
    warn(`mq: warning: XDG_CONFIG_HOME is a relative path ('${xdg}'); ignored as the XDG spec says`);
  }
  return join(homeDir(env, warn), ".config", "mq");
}
