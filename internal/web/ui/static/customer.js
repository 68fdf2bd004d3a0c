// Parking Aeropuerto: what the customer-facing pages share (home, booking flow,
// customer area): price and date formatting, JSON requests that always end in a
// message, busy buttons, inline field errors, and the debounced live quote. The
// page scripts (booking.js, profile.js) use it as window.ParkingUI. No inline
// code (the content security policy forbids it), no dependencies, no build step.
// Prices are only displayed here: the server computes every amount.
(function () {
  'use strict';

  // ---------------------------------------------------------------- helpers

  // euros formats a JSON price (a number with at most 2 decimals) as "1.234,50 €",
  // the format the server-rendered pages use (web.euros).
  // In the page's language (app.js's ParkingText, docs/languages.md#catalogues).
  var PT = window.ParkingText;
  var T = PT.T;
  function euros(n) { return PT.money(n); }

  // decimal writes a coefficient with the language's decimal mark: 1.25 → "1,25".
  function decimal(n) { return PT.number(String(n)); }

  // shortDate: "2026-12-01T10:00" (datetime-local, the facility's time) → "01/12/2026 10:00".
  function shortDate(v) { return PT.dateTime(v); }

  var WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
  var MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

  // longDate: "2026-12-01T10:00" → "martes, 1 de diciembre de 2026, 10:00". The
  // weekday comes from the calendar date alone, so the browser's zone is irrelevant.
  function longDate(v) {
    if (!v) { return ''; }
    var y = +v.slice(0, 4), m = +v.slice(5, 7), d = +v.slice(8, 10);
    var wd = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    if (PT.lang !== 'es' && window.Intl) {
      var day = new Intl.DateTimeFormat(PT.lang, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
      return day + ', ' + v.slice(11, 16);
    }
    return WEEKDAYS[wd] + ', ' + d + ' de ' + MONTHS[m - 1] + ' de ' + y + ', ' + v.slice(11, 16);
  }

  // api sends JSON and always resolves to {ok, status, data, message}: a network
  // failure or an unreadable answer becomes a message for the page to show.
  // headers (optional) are extra request headers, such as Idempotency-Key.
  function api(method, url, body, headers) {
    var opts = { method: method, credentials: 'same-origin', headers: { 'Accept': 'application/json' } };
    Object.keys(headers || {}).forEach(function (k) { opts.headers[k] = headers[k]; });
    if (body !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(body);
    }
    return fetch(url, opts).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        var message = (data && (data.message || data.error)) || '';
        if (!data) {
          message = T('ui.unexpected', { Status: res.status });
        } else if (!res.ok && !message) {
          message = T('ui.server_error', { Status: res.status });
        }
        return { ok: res.ok && !!data, status: res.status, data: data || {}, message: PT.fields(message) };
      });
    }, function () {
      return { ok: false, status: 0, data: {}, message: T('ui.offline') };
    });
  }

  // setBusy disables a button while a request is under way and shows a spinner
  // and a "…ing" label on it.
  function setBusy(btn, busy, label) {
    if (!btn) { return; }
    if (busy) {
      if (!btn.hasAttribute('data-label')) { btn.setAttribute('data-label', btn.textContent); }
      if (label) { btn.textContent = label; }
      btn.disabled = true;
      btn.classList.add('is-busy');
      btn.setAttribute('aria-busy', 'true');
    } else {
      if (btn.hasAttribute('data-label')) { btn.textContent = btn.getAttribute('data-label'); btn.removeAttribute('data-label'); }
      btn.disabled = false;
      btn.classList.remove('is-busy');
      btn.removeAttribute('aria-busy');
    }
  }

  // showError writes (or clears) the message of an error element and marks the
  // inputs it concerns as invalid.
  function showError(errorEl, inputs, message) {
    if (errorEl) {
      errorEl.textContent = message || '';
      errorEl.hidden = !message;
    }
    (inputs || []).forEach(function (input) {
      if (!input) { return; }
      if (message) { input.setAttribute('aria-invalid', 'true'); } else { input.removeAttribute('aria-invalid'); }
    });
  }

  // fieldError is showError for an input whose error element is "<id>-error".
  function fieldError(scope, input, message) {
    if (!input) { return; }
    showError(scope.querySelector('#' + input.id + '-error'), [input], message);
  }

  function focusFirstInvalid(scope) {
    var el = scope.querySelector('[aria-invalid="true"]:not([hidden])');
    if (el) { el.focus(); }
    return !!el;
  }

  // The input rules of the server (internal/input, docs/input-rules.md), mirrored so the
  // page refuses what the server refuses; the server stays authoritative (its
  // phone check is libphonenumber's, of which this is the plausibility part).
  // Messages are the server's, without the field name the page shows anyway.
  var MSG = {
    phone: T('ui.bad_phone'),
    plate: T('ui.bad_plate'),
    email: T('ui.bad_email'),
    control: T('ui.bad_control')
  };

  // hasControl: U+0000–U+001F, U+007F (tab and line breaks allowed in notes) and the
  // bidirectional controls U+202A–U+202E, U+2066–U+2069.
  function hasControl(v, multiline) {
    return (multiline ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/ : /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/).test(v);
  }

  // Phones: digits, spaces, dashes, dots, slashes, brackets and one + before the
  // digits; at most 20 characters; 6 to 17 digits (E.164 has at most 15, plus a
  // 00 international prefix).
  function validPhone(p) {
    p = p.trim();
    var digits = p.replace(/\D/g, '').length;
    return p.length <= 20 && /^[\s().\/-]*\+?[0-9\s().\/-]*$/.test(p) && digits >= 6 && digits <= 17;
  }

  // plateForm is the stored form of a plate: spaces and dashes removed, upper-case.
  function plateForm(v) { return v.trim().replace(/[ -]/g, '').toUpperCase(); }

  function validPlate(v) {
    var c = plateForm(v);
    return c.length >= 2 && c.length <= 15 && /^[A-Z0-9ÄÖÜ]+$/.test(c);
  }

  // Emails: one @ with something before it, a domain with a dot and no empty part,
  // no spaces, quotes or angle brackets. An empty optional field is valid.
  function validEmail(input) {
    var e = input.value.trim();
    if (!e) { return true; }
    var at = e.indexOf('@');
    if (at < 1 || at !== e.lastIndexOf('@') || /[\s<>"]/.test(e) || hasControl(e) || e.length > 254) { return false; }
    var labels = e.slice(at + 1).split('.');
    return labels.length > 1 && labels.every(function (l) { return l !== ''; });
  }

  function store(key, value) {
    try {
      if (value === null) { sessionStorage.removeItem(key); } else { sessionStorage.setItem(key, JSON.stringify(value)); }
    } catch (e) { /* private mode or full: the flow still works, it just forgets on reload */ }
  }

  function load(key) {
    try { return JSON.parse(sessionStorage.getItem(key) || 'null'); } catch (e) { return null; }
  }

  // makeQuoter asks POST /api/pricing/dynamic for a price, debounced, and hands
  // only the answer to the LATEST request to render: a slow answer to an older
  // request (stale input) is dropped by comparing request numbers.
  function makeQuoter(render) {
    var seq = 0;
    var timer = null;
    return function (body, immediate) {
      clearTimeout(timer);
      var mine = ++seq;
      if (!body) { render({ state: 'idle' }); return; }
      render({ state: 'loading', body: body });
      timer = setTimeout(function () {
        api('POST', '/api/pricing/dynamic', body).then(function (r) {
          if (mine !== seq) { return; }
          if (r.ok && r.data.success) {
            render({ state: 'ok', body: body, total: r.data.total_price, breakdown: r.data.breakdown || null, availability: r.data.availability || null });
          } else {
            render({ state: 'error', body: body, message: r.message || T('ui.no_price') });
          }
        });
      }, immediate ? 0 : 300);
    };
  }

  function checkedValues(scope, name) {
    return Array.prototype.map.call(scope.querySelectorAll('input[name="' + name + '"]:checked'), function (i) { return i.value; });
  }

  function daysText(n) { return n === 1 ? T('ui.days_one') : T('ui.days', { Count: n }); }

  // ---------------------------------------------------------------- home

  function initQuickQuote(form) {
    var entry = form.elements.entrada;
    var exit = form.elements.salida;
    var err = form.querySelector('#quote-error');
    form.addEventListener('submit', function (e) {
      var msg = '';
      var bad = null;
      if (!entry.value) { msg = T('ui.when_leave'); bad = entry; }
      else if (!exit.value) { msg = T('ui.when_collect'); bad = exit; }
      else if (exit.value <= entry.value) { msg = T('ui.exit_after_entry'); bad = exit; }
      showError(err, [entry, exit], '');
      if (msg) {
        e.preventDefault();
        showError(err, [bad], msg);
        bad.setAttribute('aria-describedby', 'quote-error');
        bad.focus();
      }
    });
  }

  window.ParkingUI = {
    euros: euros,
    decimal: decimal,
    shortDate: shortDate,
    longDate: longDate,
    api: api,
    setBusy: setBusy,
    showError: showError,
    fieldError: fieldError,
    focusFirstInvalid: focusFirstInvalid,
    validPhone: validPhone,
    validPlate: validPlate,
    plateForm: plateForm,
    hasControl: hasControl,
    MSG: MSG,
    validEmail: validEmail,
    store: store,
    load: load,
    makeQuoter: makeQuoter,
    checkedValues: checkedValues,
    daysText: daysText,
    T: T
  };

  var quick = document.querySelector('[data-quick-quote]');
  if (quick) { initQuickQuote(quick); }
})();
