/**
 * The marketplace's inline script (plain DOM, no framework). Forms keep working without it; with
 * it, the demo and phone-app buttons (forms with data-action) run in place: JSON requests, the
 * source list swapped for a freshly rendered one, the result announced in the aria-live status
 * line, and focus kept on the card the user acted on. Provider forms are left to the browser: they
 * end on the provider's sign-in page or come back here with a notice, which is announced again
 * once the page has loaded and focus put on that source's card.
 */
export const MARKETPLACE_SCRIPT = `
(function () {
  'use strict';
  var statusEl = document.getElementById('status');
  var list = document.getElementById('sources');
  function say(text, kind) {
    statusEl.className = 'status' + (kind ? ' ' + kind : '');
    statusEl.textContent = '';
    // A fresh text node after clearing makes screen readers announce repeated messages too.
    setTimeout(function () { statusEl.textContent = text; }, 30);
  }
  function errorText(body, fallback) {
    if (body && body.errors) {
      if (Array.isArray(body.errors)) return body.errors.join(' ');
      return Object.keys(body.errors).map(function (k) { return body.errors[k].join(' '); }).join(' ');
    }
    return (body && body.message) || fallback;
  }
  function post(url, payload) {
    return fetch(url, {
      method: 'POST',
      headers: { 'Accept': 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(payload || {}),
      credentials: 'omit'
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) {
        if (!res.ok) throw new Error(errorText(body, 'The request failed (' + res.status + ').'));
        return body;
      });
    });
  }
  function refreshList(type) {
    var url = location.href.split('#')[0].split('?')[0] + '?fragment=sources';
    return fetch(url, { headers: { 'Accept': 'text/html' }, credentials: 'omit' })
      .then(function (res) {
        if (!res.ok) throw new Error('The page could not be refreshed (' + res.status + ').');
        return res.text();
      })
      .then(function (html) {
        var doc = document.createElement('template');
        doc.innerHTML = html;
        doc = doc.content;
        var fresh = doc.getElementById('sources');
        if (fresh) list.innerHTML = fresh.innerHTML;
        var count = doc.getElementById('connected-count');
        if (count) document.getElementById('connected-count').textContent = count.textContent;
        var button = list.querySelector('li[data-type="' + type + '"] button');
        if (button) button.focus();
      });
  }
  function act(form, action) {
    var card = form.closest('li');
    var type = card.getAttribute('data-type');
    var name = card.getAttribute('data-name');
    var button = form.querySelector('button');
    button.disabled = true;
    var leaving = action === 'disconnect';
    say((leaving ? 'Disconnecting ' : 'Connecting ') + name + '…');
    return post(form.action, {}).then(function () {
      return refreshList(type).then(function () {
        say(name + (leaving ? ' disconnected.' : ' connected.'), 'ok');
      });
    }).catch(function (err) {
      button.disabled = false;
      say('Could not ' + (leaving ? 'disconnect ' : 'connect ') + name + ': ' + err.message, 'error');
    });
  }
  list.addEventListener('submit', function (e) {
    var form = e.target;
    var action = form.getAttribute('data-action');
    if (!action) return;
    e.preventDefault();
    act(form, action);
  });
  // Back from a redirect (?notice=<what>.<source>): say it again for screen readers, whose live
  // regions stay silent about text that was there on load, and put focus on that source's card.
  var notice = /[?&]notice=([a-z_]+)\.([a-z0-9_]+)/.exec(location.search);
  if (notice && statusEl.textContent) {
    var tone = statusEl.className.replace('status', '').trim();
    say(statusEl.textContent, tone);
    var again = list.querySelector('li[data-type="' + notice[2] + '"] button');
    if (again) again.focus();
  }
  var tzForm = document.getElementById('tz-form');
  tzForm.addEventListener('submit', function (e) {
    e.preventDefault();
    var select = document.getElementById('timezone');
    if (!select.value) { say('Choose a time zone first.', 'error'); select.focus(); return; }
    var button = tzForm.querySelector('button');
    button.disabled = true;
    post(tzForm.action, { timezone: select.value }).then(function () {
      document.getElementById('tz-note').textContent = 'You chose this time zone.';
      say('Time zone saved: ' + select.value.replace(/_/g, ' ') + '.', 'ok');
    }).catch(function (err) {
      say('Could not save the time zone: ' + err.message, 'error');
    }).then(function () { button.disabled = false; });
  });
})();
`;
