// The server's present a watch's windows end at: the Date header of the bundled server is its
// simulated present (not the real clock); ServerPresent asks for one event at most, from the present
// it knew before, never goes back, and falls back on mq's clock when an answer has no usable Date.
import { afterAll, describe, expect, it } from "vitest";
import type { ApiClient, QueryInput } from "../../src/api/client.js";
import { ServerPresent } from "../../src/watch/present.js";
import { drivenServer, type DrivenServer } from "../helpers/watch.js";

const T0 = new Date("2026-11-20T09:00:00Z");
let driven: DrivenServer | undefined;
afterAll(() => driven?.server.close());

/** an API client whose answers carry the Date headers given, one per request */
function answering(dates: Array<string | undefined>) {
  const asked: QueryInput[] = [];
  const client = {
    get: async (_path: string, query: QueryInput) => {
      asked.push(query);
      const date = dates.shift();
      return { headers: date === undefined ? {} : { date } };
    },
  } as unknown as ApiClient;
  return { asked, client };
}

describe("the server's present", () => {
  it("the bundled server's Date header is its present, which a test's clock moves", async () => {
    driven = await drivenServer(T0);
    const date = async () =>
      (await fetch(`${driven!.url}/v1/repos/acme/web/logs?per_page=1`, { headers: { authorization: "Bearer t" } })).headers.get("date");
    expect(await date()).toBe("Fri, 20 Nov 2026 09:00:00 GMT");
    driven.set(new Date("2026-11-20T09:10:05Z"));
    expect(await date()).toBe("Fri, 20 Nov 2026 09:10:05 GMT");
  });

  it("one event at most, from the present known before; never back; mq's clock when the Date is missing", async () => {
    const { asked, client } = answering([
      "Fri, 20 Nov 2026 09:00:00 GMT",
      "Fri, 20 Nov 2026 08:00:00 GMT",
      "not a date",
      "Fri, 20 Nov 2026 09:30:00 GMT",
    ]);
    const mq = new Date("2026-11-27T12:00:00Z");
    const present = new ServerPresent({ apiClient: async () => client, now: () => mq }, { owner: "acme", name: "web" });
    expect(await present.next()).toEqual(T0);
    // a server's clock that goes back does not take the windows back
    expect(await present.next()).toEqual(T0);
    // no Date: mq's clock, and the next question asks from nothing mq's clock said
    expect(await present.next()).toEqual(mq);
    expect(await present.next()).toEqual(mq);
    expect(asked).toEqual([
      { per_page: 1 },
      { per_page: 1, received_from: "2026-11-20T09:00:00Z" },
      { per_page: 1, received_from: "2026-11-20T09:00:00Z" },
      { per_page: 1 },
    ]);
  });
});
