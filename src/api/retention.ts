// How long the service keeps its event log: not in the OpenAPI, observed on the service (issue 13).
// A window reaching further back has no events there, which is not a window without events: the
// archive's first sync starts here, and `mq insights` says so rather than compare with it.

/** The days of events the service keeps. */
export const SERVICE_RETENTION_DAYS = 90;
