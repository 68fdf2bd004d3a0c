// Parking Aeropuerto: the few behaviours pages need, keyed on data-* attributes.
// No inline scripts (the content security policy forbids them), no dependencies.
(function () {
  'use strict';

  // The page's language and texts (docs/languages.md#catalogues): <html lang> and the
  // body's data-texts, the catalogue's "js.…" keys in that language. T(key,
  // {Name: v}) fills a text's {{.Name}} placeholders; a missing key shows as itself.
  var LANG = document.documentElement.lang || 'es';
  var TEXTS = {};
  try { TEXTS = JSON.parse(document.body.getAttribute('data-texts') || '{}'); } catch (e) { TEXTS = {}; }
  function T(key, args) {
    var s = Object.prototype.hasOwnProperty.call(TEXTS, key) ? TEXTS[key] : key;
    return s.replace(/\{\{\.(\w+)\}\}/g, function (m, name) {
      return args && args[name] !== undefined ? String(args[name]) : m;
    });
  }
  // Amounts and dates the way the server writes them (internal/i18n): "1.234,50 €"
  // (es, de), "1 234,50 €" (fr), "€1,234.50" (en); dates dd/mm/yyyy (es, fr),
  // dd.mm.yyyy (de), "2 Jan 2026" (en).
  var SEP = { es: ['.', ','], de: ['.', ','], fr: ['\u00a0', ','], en: [',', '.'] }[LANG] || ['.', ','];
  function number(s) {
    var neg = s.charAt(0) === '-';
    if (neg) { s = s.slice(1); }
    var parts = s.split('.');
    var out = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, SEP[0]) + (parts.length > 1 ? SEP[1] + parts[1] : '');
    return (neg ? '-' : '') + out;
  }
  function money(n) {
    var s = number(Number(n).toFixed(2));
    if (LANG === 'en') { return s.charAt(0) === '-' ? '-€' + s.slice(1) : '€' + s; }
    return s + ' €';
  }
  var MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  // day writes "YYYY-MM-DD…" as a day for people.
  function day(v) {
    if (!v) { return ''; }
    var y = v.slice(0, 4), m = v.slice(5, 7), d = v.slice(8, 10);
    if (LANG === 'en') { return (+d) + ' ' + MONTHS_EN[+m - 1] + ' ' + y; }
    if (LANG === 'de') { return d + '.' + m + '.' + y; }
    return d + '/' + m + '/' + y;
  }
  // dateTime writes "YYYY-MM-DDTHH:MM…" (the facility's time) as a day and time.
  function dateTime(v) {
    if (!v) { return ''; }
    return day(v) + (LANG === 'en' ? ', ' : ' ') + v.slice(11, 16);
  }
  // statusText names a reservation's status (the code stays in classes and data).
  function statusText(code) {
    var t = T('status.' + code);
    return t === 'status.' + code ? code : t;
  }
  // fields names the fields of a refusal as the page's form labels them: the
  // operations' messages say "campo phone" (docs/languages.md#what-remains).
  // A phone abroad typed without its country code (docs/input-rules.md#phones) is
  // the one refusal said whole in the page's language, with the example it carries.
  function fields(msg) {
    var phone = /sin el prefijo de su pa[ií]s[^+]*(\+\d[\d \-]*\d)/.exec(String(msg));
    if (phone) { return T('ui.phone_country_code', { Example: phone[1] }); }
    return String(msg).replace(/\bcampo ([A-Za-z_][\w.]*)/g, function (m, name) {
      var el = document.querySelector('[name="' + name + '"]');
      var label = el && el.labels && el.labels[0] ? el.labels[0].textContent.replace(/\s*\*\s*$/, '').trim() : '';
      if (!label) {
        label = T('field.' + name);
        if (label === 'field.' + name) { return m; }
      }
      return 'campo «' + label + '»';
    });
  }
  window.ParkingText = { lang: LANG, T: T, money: money, number: number, day: day, dateTime: dateTime, status: statusText, fields: fields };

  // Login: the customer/worker tabs set the hidden loginType field (spec,
  // Authentication 4). Without JavaScript the tabs are links that reload the page
  // with ?loginType=…, which the server renders the same way.
  function initLoginTabs(tabs) {
    var input = document.querySelector('[data-login-type-input]');
    var title = document.querySelector('[data-login-title]');
    var customerOnly = document.querySelectorAll('[data-customer-only]');
    var links = tabs.querySelectorAll('[data-login-type]');
    function select(link) {
      var type = link.getAttribute('data-login-type');
      links.forEach(function (l) { l.setAttribute('aria-selected', l === link ? 'true' : 'false'); });
      if (input) { input.value = type; }
      if (title) { title.textContent = link.getAttribute('data-title'); }
      customerOnly.forEach(function (el) { el.hidden = type === 'worker'; });
      if (window.history && history.replaceState) {
        history.replaceState(null, '', '/users/login?loginType=' + type);
      }
    }
    links.forEach(function (link, i) {
      link.addEventListener('click', function (e) { e.preventDefault(); select(link); });
      link.addEventListener('keydown', function (e) {
        if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') { return; }
        var next = links[(i + (e.key === 'ArrowRight' ? 1 : links.length - 1)) % links.length];
        next.focus();
        select(next);
      });
    });
  }

  // Dashboard: counts and the entries/exits tables of a day, read from
  // GET /api/reservations with an API token obtained through the session
  // (POST /admin/api-token). The token is kept for this tab only.
  function initDashboard(root) {
    var tokenKey = 'parking.dashboardToken';
    // The server's clock, not the browser's, decides when a token has expired.
    var skew = (Date.parse(root.getAttribute('data-now') || '') || Date.now()) - Date.now();
    var form = root.querySelector('[data-date-form]');
    var dateInput = form.querySelector('input[name="date"]');
    var statusEl = root.querySelector('[data-status]');
    var liveEl = root.querySelector('[data-status-live]');
    var detailURL = root.getAttribute('data-detail-url');
    var labels = T('app.labels').split('|');
    var loading = 0;

    function setStatus(text, isError) {
      statusEl.textContent = text;
      statusEl.classList.toggle('is-error', !!isError);
      statusEl.hidden = !text;
      if (liveEl) { liveEl.textContent = text; }
    }

    function storedToken() {
      try {
        var t = JSON.parse(sessionStorage.getItem(tokenKey) || 'null');
        if (t && t.token && Date.parse(t.expires_at) - (Date.now() + skew) > 60000) { return t.token; }
      } catch (e) { /* storage unavailable: fetch a fresh token */ }
      return null;
    }

    function newToken() {
      return fetch(root.getAttribute('data-token-url'), {
        method: 'POST', credentials: 'same-origin', headers: { 'Accept': 'application/json' }
      }).then(function (res) {
        if (res.status === 401) { window.location.assign('/users/login?loginType=worker'); throw new Error('session'); }
        if (!res.ok) { throw new Error(T('app.no_auth', { Status: res.status })); }
        return res.json();
      }).then(function (t) {
        try { sessionStorage.setItem(tokenKey, JSON.stringify({ token: t.token, expires_at: t.expires_at })); } catch (e) { /* ignore */ }
        return t.token;
      });
    }

    function getBoard(date, retried) {
      var token = storedToken();
      var ready = token ? Promise.resolve(token) : newToken();
      return ready.then(function (tok) {
        return fetch(root.getAttribute('data-api-url') + '?date=' + encodeURIComponent(date), {
          headers: { 'Authorization': 'Bearer ' + tok, 'Accept': 'application/json' }
        });
      }).then(function (res) {
        if (res.status === 401 && !retried) {
          try { sessionStorage.removeItem(tokenKey); } catch (e) { /* ignore */ }
          return getBoard(date, true);
        }
        return res.json().then(function (body) {
          if (!res.ok) { throw new Error(body.error || ('Error ' + res.status)); }
          return body;
        });
      });
    }

    // "2026-03-29T10:05:00+02:00" → "29/03/2026 10:05": the API already gives the
    // facility's local time, so the text is cut, not converted to the browser's zone.
    function localText(iso) {
      if (!iso) { return '—'; }
      return dateTime(iso);
    }

    // "2026-03-29" → "29/03/2026".
    function dayText(d) {
      return day(d);
    }

    function cell(tr, label, content) {
      var td = document.createElement('td');
      td.setAttribute('data-label', label);
      if (content instanceof Node) { td.appendChild(content); } else { td.textContent = content; }
      tr.appendChild(td);
    }

    var EMPTY = { entries: T('app.no_entries'), exits: T('app.no_exits'), overdue: T('app.no_overdue') };

    // A busy day has some two thousand rows: the first ones are drawn at once, the
    // rest in slices between which the page stays responsive (a newer fill of the
    // same list stops an older one).
    var SLICE = 150;

    function fill(list, items) {
      var tbody = root.querySelector('[data-list="' + list + '"]');
      var mine = {};
      tbody.fillToken = mine;
      var rows = document.createDocumentFragment();
      if (items.length === 0) {
        var tr = document.createElement('tr');
        tr.className = 'empty';
        var td = document.createElement('td');
        td.colSpan = labels.length;
        td.textContent = EMPTY[list];
        tr.appendChild(td);
        rows.appendChild(tr);
      }
      items.slice(0, SLICE).forEach(function (it) { rows.appendChild(row(it)); });
      tbody.replaceChildren(rows);
      (function more(from) {
        if (from >= items.length) { return; }
        setTimeout(function () {
          if (tbody.fillToken !== mine) { return; }
          var next = document.createDocumentFragment();
          items.slice(from, from + SLICE).forEach(function (it) { next.appendChild(row(it)); });
          tbody.appendChild(next);
          more(from + SLICE);
        }, 0);
      })(SLICE);
    }

    function row(it) {
      var tr = document.createElement('tr');
      var a = document.createElement('a');
      a.href = detailURL + it.id_reservation;
      a.textContent = '#' + it.id_reservation;
      a.setAttribute('aria-label', T('app.booking_label', { ID: it.id_reservation, Plate: it.license_plate }));
      var pill = document.createElement('span');
      pill.className = 'pill pill-' + String(it.status).replace(/\s+/g, '-');
      pill.textContent = statusText(it.status);
      cell(tr, labels[0], a);
      cell(tr, labels[1], localText(it.entry_date));
      cell(tr, labels[2], localText(it.exit_date));
      cell(tr, labels[3], it.license_plate);
      // A public booking's unknown brand and colour are the spec's placeholders
      // (Desconocida, No color): shown as a dash, not as words.
      cell(tr, labels[4], [it.brand, it.color].filter(function (x) { return x && x !== 'Desconocida' && x !== 'No color'; }).join(' · ') || '—');
      cell(tr, labels[5], it.customer_name);
      cell(tr, labels[6], it.phone);
      cell(tr, labels[7], it.service_name);
      if (it.arrived_at && it.status === 'PENDIENTE') {
        // Seen by a gate camera, not yet checked in (docs/gate.md#arrival).
        tr.setAttribute('data-arrived', '');
        var seen = document.createElement('span');
        seen.className = 'pill arrived-badge';
        seen.textContent = T('admin.gate_arrived', { When: localText(it.arrived_at) });
        var both = document.createDocumentFragment();
        both.appendChild(pill);
        both.appendChild(document.createTextNode(' '));
        both.appendChild(seen);
        pill = both;
      }
      cell(tr, labels[8], pill);
      return tr;
    }

    function load(date) {
      var mine = ++loading;
      setStatus(T('app.loading'));
      getBoard(date).then(function (b) {
        if (mine !== loading) { return; }
        root.querySelector('[data-stat="entries"]').textContent = b.stats.total_entries;
        root.querySelector('[data-stat="exits"]').textContent = b.stats.total_exits;
        root.querySelector('[data-stat="total"]').textContent = b.stats.total_entries + b.stats.total_exits;
        fill('entries', b.entries);
        fill('exits', b.exits);
        // Today's cars still in after their exit date (docs/board.md#overdue).
        var overdue = root.querySelector('[data-overdue-section]');
        if (overdue) {
          overdue.hidden = b.date !== root.getAttribute('data-today');
          var badge = root.querySelector('[data-stat="overdue"]');
          badge.textContent = b.stats.total_overdue;
          badge.setAttribute('data-count', b.stats.total_overdue > 0 ? 'some' : 'none'); // red only when there are some
          fill('overdue', b.overdue || []);
        }
        setStatus('');
        if (liveEl) { liveEl.textContent = T('app.summary', { Entries: b.stats.total_entries, Exits: b.stats.total_exits, Day: dayText(b.date) }); }
      }).catch(function (err) {
        if (mine !== loading || err.message === 'session') { return; }
        setStatus(T('app.load_failed', { Error: err.message }), true);
      });
    }

    function show(date) {
      if (window.history && history.replaceState) {
        history.replaceState(null, '', '/admin/dashboard?date=' + encodeURIComponent(date));
      }
      load(date);
    }

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (dateInput.value) { show(dateInput.value); }
    });
    dateInput.addEventListener('change', function () {
      if (dateInput.value) { show(dateInput.value); }
    });
    var todayLink = root.querySelector('[data-today-link]');
    if (todayLink) {
      todayLink.addEventListener('click', function (e) {
        e.preventDefault();
        dateInput.value = root.getAttribute('data-today');
        show(dateInput.value);
      });
    }
    // Keep the board current while it stays open: vehicles arrive all day.
    setInterval(function () {
      if (!document.hidden && dateInput.value) { load(dateInput.value); }
    }, 60000);
    load(dateInput.value);
  }

  var tabs = document.querySelector('[data-login-tabs]');
  if (tabs) { initLoginTabs(tabs); }
  var dashboard = document.querySelector('[data-dashboard]');
  if (dashboard) { initDashboard(dashboard); }
})();
