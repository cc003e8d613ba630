/**
 * The marketplace's other pages: the simulated provider consent step (used when scripts are off;
 * the script shows the same question in a dialog) and the error pages.
 */
import type { SourceDefinition } from '@wellstream/catalog';
import { esc, HtmlPage, textColorFor } from './html-document';

/** At /v2/marketplace/<token>/sources/<type>/consent: "connect" and ".." resolve next to it. */
export function consentPage(token: string, source: SourceDefinition): HtmlPage {
  const name = esc(source.name);
  return {
    title: `Allow access to ${source.name} · Wellstream`,
    css: `.logo-${source.type}{background:${source.color};color:${textColorFor(source.color)}}`,
    body: `<main class="consent" aria-labelledby="consent-title">
  <div class="provider"><span class="logo logo-${esc(source.type)}" aria-hidden="true">${esc(source.initials)}</span><p class="muted">${name} (simulated sign-in)</p></div>
  <h1 id="consent-title">Allow Wellstream to read your ${name} data?</h1>
  <p>Wellstream will read ${esc(source.resources.join(', '))} data from ${name} and share it with the service you use. You can disconnect at any time.</p>
  <form method="post" action="connect" class="actions">
    <input type="hidden" name="consent" value="allow">
    <a href="../../../${esc(encodeURIComponent(token))}">Cancel</a>
    <button type="submit">Allow</button>
  </form>
</main>`,
  };
}

export function errorPage(status: number, message: string): HtmlPage {
  const title = status === 404 ? 'This link does not work' : 'Something is not right';
  return {
    title: `${title} · Wellstream`,
    body: `<main class="consent" aria-labelledby="err-title">
  <h1 id="err-title">${esc(title)}</h1>
  <p role="alert">${esc(message)}</p>
  ${status === 404 ? '<p class="muted">Ask the service that sent you here for a new link.</p>' : ''}
</main>`,
  };
}
