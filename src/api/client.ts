// Placeholder with the agreed interface; the transport issue (#6) implements it.
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryInput = Record<string, QueryValue>;

export interface ApiResponse {
  /** the URL actually requested (after query encoding) */
  url: URL;
  status: number;
  /** lower-cased header names */
  headers: Record<string, string | undefined>;
  body: unknown;
}

export interface ApiClient {
  /** API root including /v1, without a trailing slash */
  readonly baseUrl: URL;
  /**
   * GET a path below baseUrl ("/repos/o/r/logs") with query parameters (arrays as repeated keys),
   * or an absolute URL taken from a Link header (same origin as baseUrl only). Non-2xx statuses
   * throw HttpError; network failures and timeouts throw NetworkError.
   */
  get(pathOrUrl: string | URL, query?: QueryInput): Promise<ApiResponse>;
}

export async function createApiClient(_ctx: Context): Promise<ApiClient> {
  throw new MqError("the API client is not implemented yet", ExitCode.INTERNAL);
}
