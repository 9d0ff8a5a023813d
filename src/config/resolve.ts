// Placeholder with the agreed interface; the auth/config issue (#6) implements it.
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export interface RepoRef {
  owner: string;
  name: string;
  /** where it came from: "--repo", "MQ_REPO", "GITHUB_REPOSITORY", "git remote origin", "config" */
  source: string;
}

export async function resolveRepo(_ctx: Context): Promise<RepoRef> {
  throw new MqError("repository resolution is not implemented yet", ExitCode.INTERNAL);
}
