// Parking Aeropuerto: the customer-facing pages (home quick quote, the 3-step
// booking flow, the customer area), keyed on data-* attributes. No inline code (the
// content security policy forbids it), no dependencies, no build step. Prices are
// only displayed here: the server computes every amount.
(function () {
  'use strict';

  // ---------------------------------------------------------------- helpers

  // euros formats a JSON price (a number with at most 2 decimals) as "1.234,50 €",
  // the format the server-rendered pages use (web.euros).
  function euros(n) {
    var s = Number(n).toFixed(2);
    var neg = s.charAt(0) === '-';
    if (neg) { s = s.slice(1); }
    var parts = s.split('.');
    return (neg ? '-' : '') + parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, '.') + ',' + parts[1] + ' €';
  }

  // decimal writes a coefficient with a decimal comma: 1.25 → "1,25".
  function decimal(n) { return String(n).replace('.', ','); }

  // shortDate: "2026-12-01T10:00" (datetime-local, the facility's time) → "01/12/2026 10:00".
  function shortDate(v) {
    if (!v) { return ''; }
    return v.slice(8, 10) + '/' + v.slice(5, 7) + '/' + v.slice(0, 4) + ' ' + v.slice(11, 16);
  }

  var WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
  var MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

  // longDate: "2026-12-01T10:00" → "martes, 1 de diciembre de 2026, 10:00". The
  // weekday comes from the calendar date alone, so the browser's zone is irrelevant.
  function longDate(v) {
    if (!v) { return ''; }
    var y = +v.slice(0, 4), m = +v.slice(5, 7), d = +v.slice(8, 10);
    var wd = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    return WEEKDAYS[wd] + ', ' + d + ' de ' + MONTHS[m - 1] + ' de ' + y + ', ' + v.slice(11, 16);
  }

  // api sends JSON and always resolves to {ok, status, data, message}: a network
  // failure or an unreadable answer becomes a message for the page to show.
  function api(method, url, body) {
    var opts = { method: method, credentials: 'same-origin', headers: { 'Accept': 'application/json' } };
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
          message = 'El servidor respondió de forma inesperada (' + res.status + '). Inténtelo de nuevo.';
        } else if (!res.ok && !message) {
          message = 'El servidor respondió con un error (' + res.status + '). Inténtelo de nuevo.';
        }
        return { ok: res.ok && !!data, status: res.status, data: data || {}, message: message };
      });
    }, function () {
      return { ok: false, status: 0, data: {}, message: 'No se pudo conectar con el servidor. Compruebe su conexión e inténtelo de nuevo.' };
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

  // Phones as the accounts accept them: digits and spaces, an optional leading +,
  // at least 6 digits (account.ValidPhone), so a booking's phone can later be
  // used to register.
  function validPhone(p) {
    p = p.trim();
    return /^\+?[0-9 ]+$/.test(p) && p.replace(/\D/g, '').length >= 6 && p.length <= 20;
  }

  function validEmail(input) {
    return !input.value.trim() || (!input.validity.typeMismatch && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.value.trim()));
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
            render({ state: 'ok', body: body, total: r.data.total_price, breakdown: r.data.breakdown || null });
          } else {
            render({ state: 'error', body: body, message: r.message || 'No se pudo calcular el precio.' });
          }
        });
      }, immediate ? 0 : 300);
    };
  }

  function checkedValues(scope, name) {
    return Array.prototype.map.call(scope.querySelectorAll('input[name="' + name + '"]:checked'), function (i) { return i.value; });
  }

  function daysText(n) { return n === 1 ? '1 día' : n + ' días'; }

  // ---------------------------------------------------------------- home

  function initQuickQuote(form) {
    var entry = form.elements.entrada;
    var exit = form.elements.salida;
    var err = form.querySelector('#quote-error');
    form.addEventListener('submit', function (e) {
      var msg = '';
      var bad = null;
      if (!entry.value) { msg = 'Indique cuándo deja el vehículo.'; bad = entry; }
      else if (!exit.value) { msg = 'Indique cuándo lo recoge.'; bad = exit; }
      else if (exit.value <= entry.value) { msg = 'La salida debe ser posterior a la entrada.'; bad = exit; }
      showError(err, [entry, exit], '');
      if (msg) {
        e.preventDefault();
        showError(err, [bad], msg);
        bad.setAttribute('aria-describedby', 'quote-error');
        bad.focus();
      }
    });
  }

  // ---------------------------------------------------------------- booking

  // The booking flow (spec, Public pages). Every step lives in one form; the
  // step shown follows the address (#paso-2, #paso-3), so the browser's back and
  // forward buttons move between steps; what was typed is kept in sessionStorage,
  // so a step revisited (or the page reloaded) shows it again.
  function initBooking(root) {
    var KEY = 'parking.booking';
    var DONE_KEY = 'parking.booking.done';
    var form = root.querySelector('[data-booking-form]');
    var sections = {
      1: form.querySelector('[data-step="1"]'), 2: form.querySelector('[data-step="2"]'),
      3: form.querySelector('[data-step="3"]'), done: root.querySelector('[data-step="done"]')
    };
    var now = root.getAttribute('data-now') || '';
    var quoteType = root.getAttribute('data-quote-type') || 'TURISMO';
    var quoteLabel = root.getAttribute('data-quote-label') || 'turismo';
    var f = form.elements;
    var entry = f.entry_date, exit = f.exit_date, plate = f.license_plate, vtype = f.vehicle_type;
    var datesError = root.querySelector('#dates-error');
    var serviceError = root.querySelector('#service-error');
    var submitError = root.querySelector('[data-submit-error]');
    var priceEl = root.querySelector('[data-price]');
    var priceValue = root.querySelector('[data-price-value]');
    var priceNote = root.querySelector('[data-price-note]');
    var backBtn = root.querySelector('[data-back]');
    var nextBtn = root.querySelector('[data-next]');
    var textFields = ['entry_date', 'exit_date', 'full_name', 'phone', 'email', 'license_plate', 'vehicle_type', 'brand', 'model'];
    var current = 1;
    var lastQuote = { state: 'idle' };
    var tried2 = false;
    var submitting = false;
    var pendingError = null;
    var baseTitle = document.title;

    function serviceInputs() { return root.querySelectorAll('input[name="id_main_service"]'); }
    function serviceValue() { var c = root.querySelector('input[name="id_main_service"]:checked'); return c ? c.value : ''; }

    function values() {
      var v = {};
      textFields.forEach(function (n) { v[n] = f[n].value; });
      v.id_main_service = serviceValue();
      v.additional_services = checkedValues(form, 'additional_services');
      return v;
    }

    function save() { store(KEY, values()); }

    function restore() {
      var v = load(KEY);
      if (!v) { return; }
      textFields.forEach(function (n) {
        if (typeof v[n] === 'string' && (v[n] !== '' || !f[n].defaultValue)) { f[n].value = v[n]; }
      });
      serviceInputs().forEach(function (i) { i.checked = i.value === v.id_main_service; });
      var extras = v.additional_services || [];
      form.querySelectorAll('input[name="additional_services"]').forEach(function (i) { i.checked = extras.indexOf(i.value) >= 0; });
    }

    // ----- validation

    function checkDates(required) {
      var e = entry.value.slice(0, 16), x = exit.value.slice(0, 16);
      var msg = '', bad = [];
      if (!e || !x) {
        if (required) { msg = !e ? 'Indique la fecha y hora de entrada.' : 'Indique la fecha y hora de salida.'; bad = [!e ? entry : exit]; }
      } else if (now && e < now) {
        msg = 'La entrada no puede ser anterior a este momento.'; bad = [entry];
      } else if (x <= e) {
        msg = 'La salida debe ser posterior a la entrada.'; bad = [exit];
      }
      showError(datesError, [entry, exit], '');
      showError(datesError, bad, msg);
      return !!(e && x && !msg);
    }

    function checkService(required) {
      var ok = serviceValue() !== '';
      var msg = !ok && required ? 'Elija uno de los servicios.' : '';
      showError(serviceError, Array.prototype.slice.call(serviceInputs()), msg);
      return ok;
    }

    function step1Valid(show) {
      var d = checkDates(show);
      var s = checkService(show);
      return d && s;
    }

    function step2Valid(show) {
      var rules = [
        [f.full_name, f.full_name.value.trim() ? '' : 'Indique su nombre.'],
        [f.phone, !f.phone.value.trim() ? 'Indique un teléfono de contacto.' :
          (validPhone(f.phone.value) ? '' : 'Escriba el teléfono solo con números y espacios (y un + inicial si es extranjero); al menos 6 cifras.')],
        [f.email, validEmail(f.email) ? '' : 'Revise el correo electrónico: debe tener la forma nombre@dominio.es.'],
        [plate, !plate.value.trim() ? 'Indique la matrícula.' :
          (/^[A-Z0-9ÑÇ][A-Z0-9ÑÇ -]*$/.test(plate.value.trim()) ? '' : 'La matrícula solo puede tener letras, números, espacios y guiones.')],
        [vtype, vtype.value ? '' : 'Elija el tipo de vehículo.']
      ];
      var ok = true;
      rules.forEach(function (r) {
        if (r[1]) { ok = false; }
        if (show) { fieldError(form, r[0], r[1]); }
      });
      return ok;
    }

    // ----- price

    function typeLabel(t) {
      var opt = vtype.querySelector('option[value="' + t + '"]');
      return opt ? opt.textContent.replace(/\s*\(tarifa.*$/, '') : t;
    }

    function quoteBody() {
      if (!checkDates(false) || !serviceValue()) { return null; }
      return {
        entry_date: entry.value, exit_date: exit.value, vehicle_type: vtype.value || quoteType,
        id_main_service: Number(serviceValue()), additional_services: checkedValues(form, 'additional_services').map(Number)
      };
    }

    function sameBody(a, b) { return !!a && !!b && JSON.stringify(a) === JSON.stringify(b); }

    function renderPrice(q) {
      lastQuote = q;
      priceEl.setAttribute('data-state', q.state);
      priceNote.replaceChildren();
      if (q.state === 'ok') {
        priceValue.textContent = euros(q.total);
        priceEl.setAttribute('data-total', Number(q.total).toFixed(2));
        priceEl.setAttribute('data-vehicle-type', q.body.vehicle_type);
        var note = q.breakdown ? daysText(q.breakdown.days) + ' · ' : '';
        note += vtype.value ? typeLabel(vtype.value) : 'precio para ' + quoteLabel.toLowerCase() + '; el tipo de vehículo se indica en el paso 2';
        priceNote.textContent = note;
      } else {
        priceEl.removeAttribute('data-total');
        if (q.state === 'loading') {
          var spin = document.createElement('span');
          spin.className = 'spinner';
          spin.setAttribute('aria-hidden', 'true');
          priceNote.append(spin, ' Calculando el precio…');
        } else if (q.state === 'error') {
          priceValue.textContent = '—';
          priceNote.textContent = q.message;
        } else {
          priceValue.textContent = '—';
          priceNote.textContent = entry.value && exit.value && !checkDates(false) ? 'Revise las fechas para ver el precio.' : 'Elija fechas y servicio para ver el precio.';
        }
      }
      if (current === 3) { fillSummary(); }
    }

    var quote = makeQuoter(renderPrice);
    function requote(immediate) {
      var body = quoteBody();
      if (body && lastQuote.state === 'ok' && sameBody(body, lastQuote.body)) { return; }
      quote(body, immediate);
    }

    // ----- summary (step 3)

    function fillSummary() {
      var v = values();
      var svc = root.querySelector('input[name="id_main_service"]:checked');
      var sum = function (k, text) { root.querySelector('[data-sum="' + k + '"]').textContent = text; };
      sum('entry', longDate(v.entry_date));
      sum('exit', longDate(v.exit_date));
      sum('service', svc ? svc.getAttribute('data-name') : '');
      var vehicle = [v.license_plate.trim(), [v.brand.trim(), v.model.trim()].filter(Boolean).join(' '), v.vehicle_type ? typeLabel(v.vehicle_type) : '']
        .filter(Boolean).join('\n');
      sum('vehicle', vehicle);
      sum('customer', [v.full_name.trim(), v.phone.trim(), v.email.trim()].filter(Boolean).join('\n'));
      var tbody = root.querySelector('[data-breakdown]');
      var rows = document.createDocumentFragment();
      function row(label, detail, amount) {
        var tr = document.createElement('tr');
        var th = document.createElement('th');
        th.scope = 'row';
        th.textContent = label;
        if (detail) {
          var small = document.createElement('span');
          small.className = 'detail';
          small.textContent = detail;
          th.appendChild(small);
        }
        var td = document.createElement('td');
        td.textContent = amount;
        tr.append(th, td);
        rows.appendChild(tr);
      }
      var q = lastQuote;
      var current3 = q.state === 'ok' && sameBody(q.body, quoteBody());
      if (current3 && q.breakdown) {
        var b = q.breakdown;
        var detail = daysText(b.days) + ' × ' + euros(b.daily_price) + '/día';
        if (Number(b.coefficient) !== 1) { detail += ' × ' + decimal(b.coefficient) + ' (' + typeLabel(v.vehicle_type) + ')'; }
        row('Servicio ' + (svc ? svc.getAttribute('data-name') : ''), detail, euros(b.base_price));
        form.querySelectorAll('input[name="additional_services"]:checked').forEach(function (i) {
          var price = i.closest('label').querySelector('.extra-price');
          row(i.getAttribute('data-name'), '', price ? price.textContent : '');
        });
        sum('total', euros(q.total));
      } else if (q.state === 'error') {
        row('No se pudo calcular el precio', q.message, '');
        sum('total', '—');
      } else {
        row('Calculando el precio…', '', '');
        sum('total', '—');
      }
      tbody.replaceChildren(rows);
    }

    // ----- steps and history

    function urlFor(step) {
      if (step === 1) { return location.pathname; }
      return step === 'done' ? '#reserva-confirmada' : '#paso-' + step;
    }

    function hashStep() {
      var m = /^#paso-([23])$/.exec(location.hash);
      if (m) { return +m[1]; }
      return location.hash === '#reserva-confirmada' ? 'done' : 1;
    }

    // show displays a step, falling back to the first step whose data is
    // incomplete; it returns the step actually shown.
    function show(step, focus) {
      if (step === 'done' && !fillDone(load(DONE_KEY))) { step = 1; }
      if (step === 2 || step === 3) {
        if (!step1Valid(false)) { step = 1; } else if (step === 3 && !step2Valid(false)) { step = 2; }
      }
      current = step;
      [1, 2, 3].forEach(function (n) { sections[n].hidden = n !== step; });
      form.hidden = step === 'done';
      sections.done.hidden = step !== 'done';
      root.querySelectorAll('[data-stepper]').forEach(function (li) {
        var n = +li.getAttribute('data-stepper');
        if (n === step) { li.setAttribute('aria-current', 'step'); } else { li.removeAttribute('aria-current'); }
        li.classList.toggle('is-done', step === 'done' || n < step);
      });
      backBtn.hidden = step === 1;
      nextBtn.textContent = step === 3 ? 'Confirmar reserva' : 'Continuar';
      document.title = step === 'done' ? 'Reserva confirmada · ' + baseTitle : 'Paso ' + step + ' de 3 · ' + baseTitle;
      if (step === 3) { fillSummary(); requote(true); }
      if (step !== 'done') { submitError.hidden = true; }
      if (focus) {
        window.scrollTo(0, 0);
        var h = (step === 'done' ? sections.done : sections[step]).querySelector('.step-title');
        if (h) { h.focus({ preventScroll: true }); }
      }
      applyPendingError();
      return step;
    }

    function depth() { var s = history.state; return s && typeof s.depth === 'number' ? s.depth : 0; }

    // go moves forward one step as a new history entry.
    function go(step) {
      history.pushState({ bookingStep: step, depth: depth() + 1 }, '', urlFor(step));
      show(step, true);
    }

    // goBackTo returns to an earlier step: through history when the entries are
    // ours (so back and forward stay in order), otherwise by replacing this entry.
    function goBackTo(step) {
      var diff = current - step;
      if (diff > 0 && depth() >= diff) {
        history.go(-diff);
        return;
      }
      history.replaceState({ bookingStep: step, depth: 0 }, '', urlFor(step));
      show(step, true);
    }

    window.addEventListener('popstate', function () {
      var s = history.state;
      var wanted = s && s.bookingStep ? s.bookingStep : hashStep();
      var shown = show(wanted, true);
      if (shown !== wanted) { history.replaceState({ bookingStep: shown, depth: 0 }, '', urlFor(shown)); }
    });

    // ----- server errors, shown where the customer can fix them

    var FIELD_RULES = [
      [/matr[ií]cula|license_plate/i, 'license_plate', 2],
      [/correo|email/i, 'email', 2],
      [/tel[eé]fono|phone/i, 'phone', 2],
      [/tipo de veh[ií]culo|vehicle_type|coeficiente/i, 'vehicle_type', 2],
      [/full_name|nombre/i, 'full_name', 2],
      [/\bbrand\b|marca/i, 'brand', 2],
      [/\bmodel\b|modelo/i, 'model', 2],
      [/fecha|entry_date|exit_date/i, 'dates', 1],
      [/servicio|tarifa/i, 'service', 1]
    ];

    function applyPendingError() {
      var p = pendingError;
      if (!p || p.step !== current) { return; }
      pendingError = null;
      if (p.field === 'dates') { showError(datesError, [entry, exit], p.message); entry.focus(); }
      else if (p.field === 'service') { showError(serviceError, Array.prototype.slice.call(serviceInputs()), p.message); serviceInputs()[0].focus(); }
      else if (p.field) { fieldError(form, f[p.field], p.message); f[p.field].focus(); }
      else { submitError.textContent = p.message; submitError.hidden = false; submitError.focus(); }
    }

    function serverError(message) {
      var rule = null;
      for (var i = 0; i < FIELD_RULES.length && !rule; i++) {
        if (FIELD_RULES[i][0].test(message)) { rule = FIELD_RULES[i]; }
      }
      pendingError = rule ? { field: rule[1], step: rule[2], message: message } : { field: null, step: 3, message: message };
      if (pendingError.step < current) { goBackTo(pendingError.step); } else { applyPendingError(); }
    }

    // ----- confirmation

    function fillDone(d) {
      if (!d || !d.id) { return false; }
      var put = function (k, text) { root.querySelector('[data-done="' + k + '"]').textContent = text; };
      put('id', String(d.id));
      put('entry', d.entry || '');
      put('plate', d.plate || '');
      put('name', d.name || '');
      put('total', d.total || '');
      return true;
    }

    function confirmBooking() {
      if (submitting) { return; }
      if (!step1Valid(true)) { goBackTo(1); return; }
      if (!step2Valid(true)) { goBackTo(2); return; }
      var v = values();
      var body = {
        full_name: v.full_name.trim(), phone: v.phone.trim(), email: v.email.trim(),
        license_plate: v.license_plate.trim().toUpperCase(), vehicle_type: v.vehicle_type,
        brand: v.brand.trim(), model: v.model.trim(), entry_date: v.entry_date, exit_date: v.exit_date,
        id_main_service: Number(v.id_main_service), additional_services: v.additional_services.map(Number)
      };
      submitting = true;
      submitError.hidden = true;
      setBusy(nextBtn, true, 'Confirmando…');
      backBtn.disabled = true;
      api('POST', '/api/reservations/public-new', body).then(function (r) {
        submitting = false;
        setBusy(nextBtn, false);
        backBtn.disabled = false;
        if (r.ok && r.data.success && r.data.data) {
          var d = r.data.data;
          store(DONE_KEY, { id: d.id_reservation, entry: String(d.entry_date || '').replace(/:00$/, ''), plate: d.license_plate, name: d.customer_name, total: euros(d.total_price) });
          store(KEY, null);
          history.replaceState({ bookingStep: 'done', depth: depth() }, '', urlFor('done'));
          show('done', true);
          form.reset();
          return;
        }
        serverError(r.message || 'No se pudo completar la reserva. Inténtelo de nuevo.');
      });
    }

    // ----- events

    plate.addEventListener('input', function () {
      var up = plate.value.toUpperCase();
      if (up !== plate.value) {
        var s = plate.selectionStart, e = plate.selectionEnd;
        plate.value = up;
        try { plate.setSelectionRange(s, e); } catch (x) { /* not a text selection */ }
      }
    });

    function onChange(e) {
      var name = e.target.name;
      save();
      if (name === 'entry_date' || name === 'exit_date' || name === 'id_main_service' || name === 'additional_services') {
        if (name === 'id_main_service') { checkService(false); }
        requote(false);
      } else if (name === 'vehicle_type') {
        requote(true);
      }
      if (current === 2 && tried2 && e.target.id) {
        step2Valid(true);
      }
    }
    form.addEventListener('input', onChange);
    form.addEventListener('change', onChange);

    root.querySelectorAll('[data-pick-vehicle]').forEach(function (b) {
      b.addEventListener('click', function () {
        plate.value = b.getAttribute('data-plate');
        vtype.value = b.getAttribute('data-type');
        var brand = b.getAttribute('data-brand'), model = b.getAttribute('data-model');
        f.brand.value = brand === 'Desconocida' ? '' : brand;
        f.model.value = model === 'Desconocido' ? '' : model;
        root.querySelectorAll('[data-pick-vehicle]').forEach(function (o) { o.setAttribute('aria-pressed', o === b ? 'true' : 'false'); });
        save();
        requote(true);
        if (tried2) { step2Valid(true); }
      });
    });

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (current === 1) {
        if (step1Valid(true)) { go(2); } else { focusFirstInvalid(sections[1]); }
      } else if (current === 2) {
        tried2 = true;
        if (step2Valid(true)) { go(3); } else { focusFirstInvalid(sections[2]); }
      } else if (current === 3) {
        confirmBooking();
      }
    });

    backBtn.addEventListener('click', function () {
      if (typeof current === 'number' && current > 1) { goBackTo(current - 1); }
    });

    // ----- start: stored values, then the link's dates (entrada/salida win:
    // they are what the customer just chose on the home page), then the step of
    // the address.
    restore();
    var params = new URLSearchParams(location.search);
    if (params.has('entrada')) { entry.value = entry.defaultValue; }
    if (params.has('salida')) { exit.value = exit.defaultValue; }
    if (params.has('entrada') || params.has('salida')) { save(); }
    var start = history.state && history.state.bookingStep ? history.state.bookingStep : hashStep();
    var shown = show(start, false);
    history.replaceState({ bookingStep: shown, depth: depth() }, '', urlFor(shown));
    if (entry.value || exit.value) { checkDates(false); }
    requote(true);
  }

  // ---------------------------------------------------------------- customer area

  function initProfile(root) {
    var flash = root.querySelector('[data-flash]');

    function say(message, isError) {
      flash.textContent = message;
      flash.classList.toggle('alert-error', !!isError);
      flash.classList.toggle('alert-ok', !isError);
      flash.hidden = false;
    }

    // ----- personal data and password

    var ACCOUNT_FIELDS = {
      profile: ['nombre', 'email', 'telefono'],
      password: ['currentPassword', 'newPassword', 'confirmPassword']
    };

    function checkAccount(kind, form) {
      var e = form.elements;
      var errs = {};
      if (kind === 'profile') {
        if (!e.nombre.value.trim()) { errs.nombre = 'Indique su nombre.'; }
        if (!e.email.value.trim()) { errs.email = 'Indique su correo electrónico.'; }
        else if (!validEmail(e.email)) { errs.email = 'Revise el correo electrónico: debe tener la forma nombre@dominio.es.'; }
        if (!e.telefono.value.trim()) { errs.telefono = 'Indique su teléfono.'; }
        else if (!validPhone(e.telefono.value)) { errs.telefono = 'Escriba el teléfono solo con números y espacios (y un + inicial si es extranjero); al menos 6 cifras.'; }
      } else {
        if (!e.currentPassword.value) { errs.currentPassword = 'Escriba su contraseña actual.'; }
        if (e.newPassword.value.length < 8) { errs.newPassword = 'La nueva contraseña debe tener al menos 8 caracteres.'; }
        if (!errs.newPassword && e.newPassword.value !== e.confirmPassword.value) { errs.confirmPassword = 'Las dos contraseñas nuevas no coinciden.'; }
      }
      return errs;
    }

    function accountFieldOf(kind, status, message) {
      if (kind === 'profile') {
        if (/correo|email/i.test(message)) { return 'email'; }
        if (/tel[eé]fono/i.test(message)) { return 'telefono'; }
        if (/nombre/i.test(message)) { return 'nombre'; }
        return null;
      }
      if (status === 401 && /actual/i.test(message)) { return 'currentPassword'; }
      if (/coinciden|confirmaci/i.test(message)) { return 'confirmPassword'; }
      if (/nueva/i.test(message)) { return 'newPassword'; }
      return null;
    }

    root.querySelectorAll('[data-account-form]').forEach(function (form) {
      var kind = form.getAttribute('data-account-form');
      var names = ACCOUNT_FIELDS[kind];
      var msg = form.querySelector('[data-form-message]');
      var btn = form.querySelector('button[type="submit"]');
      function message(text, isError) {
        msg.textContent = text;
        msg.classList.toggle('is-error', !!isError);
        msg.setAttribute('role', isError ? 'alert' : 'status');
        msg.hidden = !text;
      }
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        message('');
        var errs = checkAccount(kind, form);
        names.forEach(function (n) { fieldError(form, form.elements[n], errs[n] || ''); });
        if (focusFirstInvalid(form)) { return; }
        var body = {};
        names.forEach(function (n) { body[n] = kind === 'profile' ? form.elements[n].value.trim() : form.elements[n].value; });
        setBusy(btn, true, 'Guardando…');
        api('PUT', form.getAttribute('data-url'), body).then(function (r) {
          setBusy(btn, false);
          if (r.ok && r.data.success) {
            message(r.data.message || 'Cambios guardados.');
            if (kind === 'profile') {
              document.querySelectorAll('.whoami-name, [data-greeting-name]').forEach(function (el) { el.textContent = body.nombre; });
              names.forEach(function (n) { form.elements[n].defaultValue = body[n]; });
              // The password form's hidden username follows, for password managers.
              document.querySelectorAll('input[name="username"]').forEach(function (el) { el.value = body.email; });
            } else {
              form.reset();
            }
            return;
          }
          var field = accountFieldOf(kind, r.status, r.message);
          if (field) {
            fieldError(form, form.elements[field], r.message);
            form.elements[field].focus();
          } else {
            message(r.message, true);
          }
        });
      });
    });

    // ----- reservations: edit

    function lists() {
      return { active: root.querySelector('[data-list="active"]'), past: root.querySelector('[data-list="past"]') };
    }

    function updateEmpty() {
      var l = lists();
      root.querySelector('[data-empty="active"]').hidden = !!l.active.querySelector('[data-reservation]');
      root.querySelector('[data-empty="past"]').hidden = !!l.past.querySelector('[data-reservation]');
    }

    function cardMessage(card, text) {
      var m = card.querySelector('[data-res-message]');
      m.textContent = text;
      m.hidden = !text;
    }

    function setupEdit(card, form) {
      if (form.quote) { return; }
      var inCourse = card.getAttribute('data-status') === 'EN CURSO';
      var e = form.elements;
      var priceBox = form.querySelector('[data-edit-price]');
      var total = form.querySelector('[data-edit-total]');
      var note = form.querySelector('[data-edit-note]');
      var datesErr = form.querySelector('[data-edit-dates-error]');
      var was = card.querySelector('[data-res="total"]');

      function body() {
        return {
          entry_date: e.entry_date.value, exit_date: e.exit_date.value,
          id_main_service: Number(e.id_main_service.value),
          additional_services: checkedValues(form, 'additional_services').map(Number)
        };
      }
      function datesOK() {
        var a = e.entry_date.value, b = e.exit_date.value, msg = '';
        if (!a || !b) { msg = 'Indique la entrada y la salida.'; }
        else if (b <= a) { msg = 'La salida debe ser posterior a la entrada.'; }
        showError(datesErr, [e.entry_date, e.exit_date], '');
        showError(datesErr, [!b || (a && b <= a) ? e.exit_date : e.entry_date], msg);
        return !msg;
      }
      form.quote = makeQuoter(function (q) {
        priceBox.setAttribute('data-state', q.state);
        if (q.state === 'ok') {
          total.textContent = euros(q.total);
          priceBox.setAttribute('data-total', Number(q.total).toFixed(2));
          note.textContent = (q.breakdown ? daysText(q.breakdown.days) + ' · ' : '') + 'ahora: ' + was.textContent;
        } else {
          priceBox.removeAttribute('data-total');
          if (q.state === 'loading') { note.textContent = 'Calculando el nuevo precio…'; }
          else if (q.state === 'error') { total.textContent = '—'; note.textContent = q.message; }
          else { total.textContent = '—'; note.textContent = 'Revise las fechas para ver el nuevo precio.'; }
        }
      });
      form.requote = function (immediate) {
        if (!datesOK()) { form.quote(null); return; }
        var b = body();
        b.vehicle_type = card.getAttribute('data-vehicle-type');
        form.quote(b, immediate);
      };
      form.addEventListener('input', function () { form.requote(false); });
      form.addEventListener('change', function () { form.requote(false); });

      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        var err = form.querySelector('[data-edit-error]');
        err.hidden = true;
        if (!datesOK()) { focusFirstInvalid(form); return; }
        var b = body();
        if (inCourse) { delete b.entry_date; } // spec: EN CURSO keeps its entry date
        var save = form.querySelector('[data-edit-save]');
        setBusy(save, true, 'Guardando…');
        api('PUT', '/users/profile/reservation/' + card.getAttribute('data-reservation') + '/edit', b).then(function (r) {
          setBusy(save, false);
          if (!(r.ok && r.data.success)) {
            if (/fecha/i.test(r.message)) { showError(datesErr, [e.exit_date], r.message); e.exit_date.focus(); }
            else { err.textContent = r.message; err.hidden = false; }
            return;
          }
          // The card now shows what was saved; the form's defaults follow, so
          // "Descartar" returns to the saved values.
          var opt = e.id_main_service.options[e.id_main_service.selectedIndex];
          card.querySelector('[data-res="entry"]').textContent = shortDate(e.entry_date.value);
          card.querySelector('[data-res="exit"]').textContent = shortDate(e.exit_date.value);
          card.querySelector('[data-res="service"]').textContent = opt.getAttribute('data-name');
          var names = Array.prototype.map.call(form.querySelectorAll('input[name="additional_services"]:checked'), function (i) { return i.getAttribute('data-name'); });
          card.querySelector('[data-res="extras"]').textContent = names.length ? names.join(', ') : 'Ninguno';
          was.textContent = euros(r.data.total_price);
          card.setAttribute('data-entry', e.entry_date.value);
          Array.prototype.forEach.call(form.elements, function (el) {
            if (el.type === 'checkbox') { el.defaultChecked = el.checked; }
            else if (el.tagName === 'SELECT') { Array.prototype.forEach.call(el.options, function (o) { o.defaultSelected = o.selected; }); }
            else if (el.tagName === 'INPUT') { el.defaultValue = el.value; }
          });
          toggleEdit(card, false);
          cardMessage(card, 'Reserva modificada. Nuevo total: ' + euros(r.data.total_price) + '.');
        });
      });
    }

    function toggleEdit(card, open) {
      var form = card.querySelector('[data-edit-form]');
      var btn = card.querySelector('[data-edit-toggle]');
      if (!form) { return; }
      if (open === undefined) { open = form.hidden; }
      setupEdit(card, form);
      if (open) {
        cardMessage(card, '');
        form.hidden = false;
        btn.setAttribute('aria-expanded', 'true');
        form.requote(true);
        var first = form.querySelector('input:not([readonly]), select');
        if (first) { first.focus(); }
      } else {
        form.reset();
        form.querySelector('[data-edit-error]').hidden = true;
        showError(form.querySelector('[data-edit-dates-error]'), [form.elements.entry_date, form.elements.exit_date], '');
        form.hidden = true;
        btn.setAttribute('aria-expanded', 'false');
        btn.focus();
      }
    }

    // ----- reservations: cancel, after a confirmation dialog

    var dialog = root.querySelector('[data-cancel-dialog]');
    var confirmBtn = dialog.querySelector('[data-cancel-confirm]');
    var dismissBtn = dialog.querySelector('[data-cancel-dismiss]');
    var dialogError = dialog.querySelector('[data-cancel-error]');
    var target = null;
    var opener = null;

    function openCancel(card, btn) {
      target = card;
      opener = btn;
      dialog.querySelector('[data-cancel-id]').textContent = card.getAttribute('data-reservation');
      dialogError.hidden = true;
      dialog.showModal();
    }

    function markCancelled(card) {
      var pill = card.querySelector('[data-res-status]');
      pill.textContent = 'CANCELADA';
      pill.className = 'pill pill-CANCELADA';
      card.setAttribute('data-status', 'CANCELADA');
      ['[data-res-actions]', '[data-edit-form]', '.hint'].forEach(function (sel) {
        var el = card.querySelector(sel);
        if (el) { el.remove(); }
      });
      cardMessage(card, '');
      var l = lists();
      l.past.insertBefore(card, l.past.firstChild);
      updateEmpty();
    }

    dismissBtn.addEventListener('click', function () { dialog.close(); });
    dialog.addEventListener('close', function () {
      if (opener && document.body.contains(opener)) { opener.focus(); }
    });
    confirmBtn.addEventListener('click', function () {
      if (!target) { return; }
      var card = target;
      var id = card.getAttribute('data-reservation');
      setBusy(confirmBtn, true, 'Cancelando…');
      dismissBtn.disabled = true;
      api('DELETE', '/users/profile/reservation/' + id + '/cancel').then(function (r) {
        setBusy(confirmBtn, false);
        dismissBtn.disabled = false;
        if (!(r.ok && r.data.success)) {
          dialogError.textContent = r.message;
          dialogError.hidden = false;
          return;
        }
        opener = null;
        dialog.close();
        markCancelled(card);
        say('Reserva nº ' + id + ' cancelada. La plaza ha quedado libre.');
        flash.focus();
      });
    });

    root.addEventListener('click', function (e) {
      var t = e.target.closest('[data-edit-toggle], [data-edit-close], [data-cancel]');
      if (!t) { return; }
      var card = t.closest('[data-reservation]');
      if (t.hasAttribute('data-edit-toggle')) { toggleEdit(card); }
      else if (t.hasAttribute('data-edit-close')) { toggleEdit(card, false); }
      else { openCancel(card, t); }
    });
  }

  var quick = document.querySelector('[data-quick-quote]');
  if (quick) { initQuickQuote(quick); }
  var booking = document.querySelector('[data-booking]');
  if (booking) { initBooking(booking); }
  var profile = document.querySelector('[data-profile]');
  if (profile) { initProfile(profile); }
})();
