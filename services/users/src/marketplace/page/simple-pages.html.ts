/**
 * The marketplace's other page: what a browser sees when a link or a request does not work.
 */
import { esc, HtmlPage } from './html-document';

export function errorPage(status: number, message: string): HtmlPage {
  const title = status === 404 ? 'This link does not work' : 'Something is not right';
  return {
    title: `${title} · Wellstream`,
    body: `<main class="panel" aria-labelledby="err-title">
  <h1 id="err-title">${esc(title)}</h1>
  <p role="alert">${esc(message)}</p>
  ${status === 404 ? '<p class="muted">Ask the service that sent you here for a new link.</p>' : ''}
</main>`,
  };
}
