/**
 * The FHIR routes, registered from their declarations. Every answer is `application/fhir+json`,
 * errors as OperationOutcome (answerFhirError), never the REST API's error shapes.
 */
import type { IRouter, Request, Response } from 'express';
import { TimeSlice } from '@wellstream/bus';
import { answerFhirError, declaredRoute, organizationCaller, sendFhir } from '@wellstream/http';
import { notFound } from '@wellstream/errors';
import type { Logger } from '@wellstream/logging';
import { recordsEndpoint } from '../records-endpoints';
import { capabilityStatement } from './capability-statement';
import { readDevice, readPatient, searchObservations, searchPatients, type FhirCaller, type FhirReadDeps } from './fhir-read.usecase';

export function fhirRoutes(router: IRouter, deps: Omit<FhirReadDeps, 'pause'> & { logger: Logger }): void {
  const handle = (operationId: string, answer: (req: Request, caller: FhirCaller, self: string, d: FhirReadDeps) => Promise<object>) =>
    declaredRoute(router, recordsEndpoint(operationId), (req: Request, res: Response) => {
      const slice = new TimeSlice({ givesWay: true });
      const run = async () => {
        const caller = organizationCaller(req);
        const proto = String(req.headers['x-forwarded-proto'] ?? 'http').split(',')[0].trim();
        const origin = `${proto}://${req.headers.host ?? 'localhost'}`;
        const baseUrl = `${origin}/v2/organizations/${encodeURIComponent(caller.organizationId)}/fhir`;
        // Links name the request without the developer token: a link is shared more than a token should be.
        const self = new URL(`${origin}${req.originalUrl}`);
        self.searchParams.delete('token');
        const body = await answer(req, { ...caller, baseUrl }, self.toString(), { ...deps, pause: () => slice.pause() });
        sendFhir(res, 200, body);
      };
      run().catch((err: unknown) => answerFhirError(res, err, deps.logger));
    });

  handle('fhirCapabilities', async (_req, caller, _self, d) => capabilityStatement(d.clock.now().toISOString(), caller.baseUrl));
  handle('fhirSearchPatients', (req, caller, self, d) => searchPatients(d, caller, req.query as Record<string, unknown>, self));
  handle('fhirReadPatient', (req, caller, _self, d) => readPatient(d, caller, req.params.patient_id));
  handle('fhirSearchObservations', (req, caller, self, d) => searchObservations(d, caller, req.query as Record<string, unknown>, self));
  handle('fhirReadDevice', (req, caller, _self, d) => readDevice(d, caller, req.params.device_id));
  // Anything else under the FHIR base (another resource type or method) is FHIR's 404 too.
  router.all('/v2/organizations/:org_id/fhir/*', (req: Request, res: Response) =>
    answerFhirError(res, notFound('FHIR_NOT_SUPPORTED', `${req.method} ${req.path} is not supported by this FHIR server (see its metadata).`), deps.logger),
  );
}
