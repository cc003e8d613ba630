/**
 * GET /v2/exports/:export_id/download?expires&signature: the export's NDJSON file, through the
 * signed link its job handed out (no token: the link is the credential, and short-lived). A link
 * past its time answers 410; a forged or altered one 401. The file is written chunk page by chunk
 * page with backpressure, then the manifest line.
 */
import type { IRouter, Response } from 'express';
import { endpointRoute, writable } from '@wellstream/http';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { exportLinkExpired, exportLinkInvalid, exportNotFound } from '../../lifecycle.errors';
import { manifestLine } from '../assemble-export.usecase';
import { checkExportLink } from '../export-link';
import { usersEndpoint } from '../../../users-endpoints';
import { yieldToOthers } from '@wellstream/contracts';

/** Writes, then resolves once the socket takes more or is gone (libs/http's wait for drain). */
function written(res: Response, text: string): Promise<void> {
  if (res.write(text) || res.destroyed) return Promise.resolve();
  return writable(res);
}

export function downloadExportRoute(router: IRouter, deps: LifecycleDeps): void {
  endpointRoute(router, usersEndpoint('downloadUserExport'), [], async (req, res) => {
    const id = req.params.export_id;
    const check = checkExportLink(deps.linkKey, id, req.query.expires, req.query.signature, deps.clock.now().getTime());
    if (check === 'invalid') throw exportLinkInvalid();
    if (check === 'expired') throw exportLinkExpired();
    const job = await deps.exports.byId(id);
    if (!job || job.status !== 'ready') throw exportNotFound(id); // erased since the link was made
    res.status(200).type('application/x-ndjson');
    res.setHeader('Content-Disposition', `attachment; filename="${id}.ndjson"`);
    try {
      for await (const page of deps.exports.chunkPages(id)) {
        for (const chunk of page) await written(res, chunk.lines);
        if (res.destroyed) return;
        await yieldToOthers();
      }
    } catch (err) {
      // The 200 is out: cut the connection so the client sees a broken download, never a file that looks whole.
      res.destroy(err as Error);
      return;
    }
    res.end(manifestLine(job));
  });
}
