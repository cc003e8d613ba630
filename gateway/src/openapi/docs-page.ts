/**
 * A readable, self-contained page for the OpenAPI document (the machine is offline, so no CDN
 * assets): every operation with its parameters and answers. No script; one inline style.
 */
import { cspHash, htmlSecurityHeaders } from '@wellstream/http';

/** Fixed text, so the page's policy allows exactly this style, by its hash (DOCS_PAGE_HEADERS). */
export const DOCS_CSS = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
code{font:13px ui-monospace,monospace;background:#f2f4f8;padding:.1rem .3rem;border-radius:4px}
.op{border:1px solid #dde2ea;border-radius:8px;padding:.5rem 1rem;margin:1rem 0}.op h3{margin:.3rem 0;font-size:1rem}
.m{display:inline-block;min-width:4.5rem;text-align:center;color:#fff;border-radius:4px;padding:.1rem .4rem;font-size:.8rem}
.get{background:#2b7bd9}.post{background:#2f9e5b}.put{background:#c98a14}.patch{background:#8a5cd1}.delete{background:#c9302c}
h4{margin:.5rem 0 .2rem;font-size:.85rem;color:#55607a}`;

/** The marketplace's strict headers; the policy allows this page's one style and nothing else. */
export const DOCS_PAGE_HEADERS = htmlSecurityHeaders({ styleSrc: [cspHash(DOCS_CSS)] });

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

interface Op {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  responses?: Record<string, { description?: string }>;
}

export function renderDocsPage(doc: { info: { title: string; description?: string }; servers: { url: string }[]; paths: Record<string, unknown> }): string {
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [method, raw] of Object.entries(item as Record<string, Op>)) {
      // Path-level `parameters` sit beside the operations.
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      const op = raw;
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${esc(p.name)}</code> <small>${esc(p.in)}${p.required ? ', required' : ''}</small> ${esc(p.description)}</li>`)
        .join('');
      const responses = Object.entries(op.responses ?? {})
        .map(([code, r]) => `<li><code>${esc(code)}</code> ${esc(r.description)}</li>`)
        .join('');
      ops.push(`<section class="op"><h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p>${op.description ? `<p class="d">${esc(op.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${responses ? `<h4>Responses</h4><ul>${responses}</ul>` : ''}</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)}</title><style>${DOCS_CSS}</style></head><body>
<h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description)}</p><p>Base URL: <code>${esc(doc.servers[0]?.url)}</code> · <a href="/v2/openapi.json">openapi.json</a></p>
${ops.join('\n')}</body></html>`;
}
