/**
 * The Bulk Data routes, registered from their declarations; answers and errors are FHIR's (the
 * manifest is plain JSON, as the specification has it; files are NDJSON).
 */
import type { IRouter, Request, Response } from 'express';
import { TimeSlice } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';
import { answerFhirError, declaredRoute, operationOutcomeOf, organizationCaller, sendFhir, sendJson } from '@wellstream/http';
import { recordsEndpoint } from '../../records-endpoints';
import type { FhirCaller } from '../fhir-read.usecase';
import { cancelExport, exportFile, exportStatus, kickOffExport, type ExportDeps } from './export.usecase';

const callerOf = (req: Request): FhirCaller => {
  const caller = organizationCaller(req);
  return { ...caller, baseUrl: `${originOf(req)}/v2/organizations/${encodeURIComponent(caller.organizationId)}/fhir` };
};
const originOf = (req: Request) => `${String(req.headers['x-forwarded-proto'] ?? 'http').split(',')[0].trim()}://${req.headers.host ?? 'localhost'}`;

export function fhirExportRoutes(router: IRouter, deps: ExportDeps & { logger: Logger }): void {
  // One slice for the process's downloads: each gives way to other work between pages.
  const slice = new TimeSlice({ givesWay: true });
  const handle = (operationId: string, answer: (req: Request, res: Response) => Promise<void>) =>
    declaredRoute(router, recordsEndpoint(operationId), (req: Request, res: Response) => void answer(req, res).catch((err: unknown) => answerFhirError(res, err, deps.logger)));

  const kickOff = async (req: Request, res: Response, group?: string) => {
    const self = new URL(`${originOf(req)}${req.originalUrl}`);
    self.searchParams.delete('token');
    const status = await kickOffExport(deps, callerOf(req), { query: req.query as Record<string, unknown>, prefer: String(req.headers.prefer ?? ''), group, request: self.toString() });
    sendFhir(res, 202, { resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational', diagnostics: `Export accepted; poll ${status}` }] }, { 'Content-Location': status });
  };
  handle('fhirExportPatients', (req, res) => kickOff(req, res));
  handle('fhirExportGroup', (req, res) => kickOff(req, res, req.params.group_id));
  handle('fhirExportStatus', async (req, res) => {
    const s = await exportStatus(deps, callerOf(req), req.params.job_id);
    if (s.state === 'running') {
      res.writeHead(202, { 'X-Progress': s.progress, 'Retry-After': '1' });
      res.end();
    } else sendJson(res, 200, s.manifest, { Expires: s.expires });
  });
  handle('fhirExportCancel', async (req, res) => {
    await cancelExport(deps, callerOf(req), req.params.job_id);
    sendFhir(res, 202, operationOutcomeOf(202, ['Export cancelled; its files are deleted.']));
  });
  handle('fhirExportFile', async (req, res) => {
    const parts = await exportFile(deps, req.params.job_id, req.params.file, req.query.expires, req.query.signature);
    res.writeHead(200, { 'Content-Type': 'application/fhir+ndjson' });
    for await (const page of parts) {
      for (const p of page) if (!res.write(p.ndjson)) await new Promise((r) => res.once('drain', r));
      await slice.pause();
    }
    res.end();
  });
}
