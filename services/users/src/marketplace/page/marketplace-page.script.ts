/**
 * The marketplace's inline script (plain DOM, no framework). Forms keep working without it; with
 * it, actions run in place: a consent dialog for providers, JSON requests, the source list swapped
 * for a freshly rendered one, the result announced in the aria-live status line, and focus kept
 * on the card the user acted on.
 */
export const MARKETPLACE_SCRIPT = `
(function () {
  'use strict';
  var statusEl = document.getElementById('status');
  var list = document.getElementById('sources');
  var dialog = document.getElementById('consent');
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
  function connectUrl(form) { return form.action.replace(/\\/(consent|connect)(\\?.*)?$/, '/connect'); }
  function act(form, action) {
    var card = form.closest('li');
    var type = card.getAttribute('data-type');
    var name = card.getAttribute('data-name');
    var button = form.querySelector('button');
    button.disabled = true;
    var req = action === 'disconnect'
      ? post(form.action, {})
      : post(connectUrl(form), { consent: true });
    say((action === 'disconnect' ? 'Disconnecting ' : 'Connecting ') + name + '…');
    return req.then(function () {
      return refreshList(type).then(function () {
        say(name + (action === 'disconnect' ? ' disconnected.' : ' connected.'), 'ok');
      });
    }).catch(function (err) {
      button.disabled = false;
      say('Could not ' + (action === 'disconnect' ? 'disconnect ' : 'connect ') + name + ': ' + err.message, 'error');
    });
  }
  list.addEventListener('submit', function (e) {
    var form = e.target;
    var action = form.getAttribute('data-action');
    if (!action) return;
    e.preventDefault();
    if (action !== 'consent' || typeof dialog.showModal !== 'function') { act(form, action); return; }
    var name = form.closest('li').getAttribute('data-name');
    document.getElementById('consent-name').textContent = name;
    document.getElementById('consent-name2').textContent = name;
    dialog.returnValue = '';
    dialog.onclose = function () {
      if (dialog.returnValue === 'allow') act(form, 'connect');
      else { say('Not connected: you cancelled access to ' + name + '.'); var b = form.querySelector('button'); if (b) b.focus(); }
    };
    dialog.showModal();
    document.getElementById('consent-allow').focus();
  });
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
