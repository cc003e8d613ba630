/**
 * A special-request export of one user's data: the job the operator follows (`running` until every
 * service that holds user data sent its last part, then `ready`), and the NDJSON file it becomes.
 * The file is the parts' lines in service and part order, then one `manifest` line with the counts
 * per kind and service, the byte size and sha256 of everything before it.
 */
import { USER_DATA_SERVICES, UserDataService } from '@wellstream/contracts';

export interface ServicePart {
  done: boolean;
  items: number;
}

export interface ExportJob {
  _id: string;
  user_id: string;
  uid: string;
  organization_id: string;
  customer_id: string;
  /** The user's status when the export was asked for. */
  user_status: string;
  status: 'running' | 'ready';
  requested_at: string;
  completed_at: string | null;
  parts: Record<UserDataService, ServicePart>;
  /** Set once ready: the file's size (manifest line excluded), its sha256, items per kind. */
  size_bytes: number | null;
  sha256: string | null;
  counts: Record<string, number> | null;
}

/** One part's lines, stored as the NDJSON text they add to the file. */
export interface ExportChunk {
  _id: string;
  export_id: string;
  /** Service order, then part order: the file is the chunks sorted by this. */
  order: string;
  lines: string;
  items: number;
}

export const newExportId = (uuid: string) => `exp_${uuid.replace(/-/g, '')}`;

export const emptyParts = (): Record<UserDataService, ServicePart> =>
  Object.fromEntries(USER_DATA_SERVICES.map((s) => [s, { done: false, items: 0 }])) as Record<UserDataService, ServicePart>;

export const chunkOrder = (service: UserDataService, seq: number) => `${USER_DATA_SERVICES.indexOf(service)}:${String(seq).padStart(9, '0')}`;

export const allPartsDone = (job: ExportJob) => USER_DATA_SERVICES.every((s) => job.parts[s]?.done);
