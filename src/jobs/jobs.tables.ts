/**
 * The one job table (DESIGN.md "Jobs"): exports, imports and other long work of every kind. `status` is
 * `pending` until the job ends (`complete` or `failed`); a pending row with a live lease is running. The
 * lease, not the status, marks a running job, so a worker that dies leaves a row that comes back.
 */
export interface JobsTable {
  id: string;
  organization_id: string;
  kind: string;
  status: string;
  percent_complete: number;
  /** JSON: what the job was asked to do. */
  payload: string;
  /** JSON: the handler's progress (its checkpoint while running) and then its result. */
  result: string | null;
  /** JSON `{message}` once failed. */
  error: string | null;
  attempts: number;
  due_at: string;
  lease_until: string | null;
  lease_owner: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface JobTables {
  jobs: JobsTable;
}
