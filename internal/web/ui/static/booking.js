// Parking Aeropuerto: the 3-step booking flow of GET /booking (booking.html),
// keyed on data-* attributes; helpers from customer.js (window.ParkingUI).
(function () {
  'use strict';

  var ui = window.ParkingUI;
  var euros = ui.euros;
  var decimal = ui.decimal;
  var longDate = ui.longDate;
  var api = ui.api;
  var setBusy = ui.setBusy;
  var showError = ui.showError;
  var fieldError = ui.fieldError;
  var focusFirstInvalid = ui.focusFirstInvalid;
  var validPhone = ui.validPhone;
  var validEmail = ui.validEmail;
  var store = ui.store;
  var load = ui.load;
  var makeQuoter = ui.makeQuoter;
  var checkedValues = ui.checkedValues;
  var daysText = ui.daysText;
  var T = ui.T;

  // The booking flow (docs/web-pages.md). Every step lives in one form; the
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
        if (required) { msg = !e ? T('booking.entry_missing') : T('booking.exit_missing'); bad = [!e ? entry : exit]; }
      } else if (now && e < now) {
        msg = T('booking.entry_past'); bad = [entry];
      } else if (x <= e) {
        msg = T('ui.exit_after_entry'); bad = [exit];
      }
      showError(datesError, [entry, exit], '');
      showError(datesError, bad, msg);
      return !!(e && x && !msg);
    }

    function checkService(required) {
      var ok = serviceValue() !== '';
      var msg = !ok && required ? T('booking.choose_service') : '';
      showError(serviceError, Array.prototype.slice.call(serviceInputs()), msg);
      return ok;
    }

    function step1Valid(show) {
      var d = checkDates(show);
      var s = checkService(show);
      return d && s && avail.status !== 'full';
    }

    // ----- availability (docs/capacity.md#seeing-it): as soon as both dates are chosen, the date
    // step says when a day of the stay is full or nearly full, before the customer
    // types their data; a full stay cannot go on (the button is disabled). The
    // booking itself is still the judge: a place taken meanwhile is a 409.

    var availEl = root.querySelector('[data-availability]');
    var avail = { key: '', status: '', full: [] };
    var availSeq = 0, availTimer = null;

    function dayES(d) { return window.ParkingText.day(d); }
    function listES(a) { return a.length < 2 ? a.join('') : a.slice(0, -1).join(', ') + T('booking.and') + a[a.length - 1]; }

    function renderAvailability() {
      var st = avail.status;
      root.setAttribute('data-availability-status', st);
      if (st === 'full') {
        availEl.className = 'availability alert alert-error';
        availEl.textContent = T(avail.full.length === 1 ? 'booking.full_day' : 'booking.full_days', { Days: listES(avail.full.map(dayES)) });
      } else if (st === 'few') {
        availEl.className = 'availability alert alert-warn';
        availEl.textContent = T('booking.few');
      }
      availEl.hidden = st !== 'full' && st !== 'few';
      if (!submitting) { nextBtn.disabled = st === 'full'; }
    }

    function checkAvailability(force) {
      var e = entry.value.slice(0, 10), x = exit.value.slice(0, 10);
      var key = checkDates(false) ? e + '/' + x : '';
      if (key === avail.key && !force) { return; }
      clearTimeout(availTimer);
      var mine = ++availSeq;
      if (!key) { avail = { key: '', status: '', full: [] }; renderAvailability(); return; }
      availTimer = setTimeout(function () {
        api('GET', '/api/availability?from=' + e + '&to=' + x).then(function (r) {
          if (mine !== availSeq) { return; }
          var full = [], few = false;
          // A stay longer than the availability range answers 400: the booking decides.
          ((r.ok && r.data.days) || []).forEach(function (d) {
            if (d.status === 'full') { full.push(d.date); } else if (d.status === 'few') { few = true; }
          });
          avail = { key: key, status: full.length ? 'full' : (few ? 'few' : (r.ok ? 'available' : '')), full: full };
          renderAvailability();
        });
      }, force ? 0 : 250);
    }

    function step2Valid(show) {
      var MSG = ui.MSG;
      var name = f.full_name.value.trim();
      var rules = [
        [f.full_name, !name ? T('booking.name_missing') : (ui.hasControl(name) ? MSG.control : '')],
        [f.phone, !f.phone.value.trim() ? T('booking.phone_missing') : (validPhone(f.phone.value) ? '' : MSG.phone)],
        [f.email, validEmail(f.email) ? '' : MSG.email],
        [plate, !plate.value.trim() ? T('booking.plate_missing') : (ui.validPlate(plate.value) ? '' : MSG.plate)],
        [vtype, vtype.value ? '' : T('booking.type_missing')],
        [f.brand, ui.hasControl(f.brand.value) ? MSG.control : ''],
        [f.model, ui.hasControl(f.model.value) ? MSG.control : '']
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
        note += vtype.value ? typeLabel(vtype.value) : T('booking.price_for', { Type: quoteLabel.toLowerCase() });
        priceNote.textContent = note;
        // The quote's availability (docs/capacity.md#seeing-it): a nearly full or full stay says so.
        var a = q.availability;
        if (a && (a.status === 'few' || a.status === 'full')) {
          var warn = document.createElement('strong');
          warn.className = 'price-warn';
          warn.setAttribute('data-price-availability', a.status);
          warn.textContent = a.status === 'few' ? T('booking.few_short') : T('booking.full_short');
          priceNote.append(' · ', warn);
        }
      } else {
        priceEl.removeAttribute('data-total');
        if (q.state === 'loading') {
          var spin = document.createElement('span');
          spin.className = 'spinner';
          spin.setAttribute('aria-hidden', 'true');
          priceNote.append(spin, ' ' + T('booking.calculating'));
        } else if (q.state === 'error') {
          priceValue.textContent = '—';
          priceNote.textContent = q.message;
        } else {
          priceValue.textContent = '—';
          priceNote.textContent = entry.value && exit.value && !checkDates(false) ? T('booking.check_dates') : T('booking.choose_dates');
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
        var detail = daysText(b.days) + ' × ' + euros(b.daily_price) + T('booking.per_day');
        if (Number(b.coefficient) !== 1) { detail += ' × ' + decimal(b.coefficient) + ' (' + typeLabel(v.vehicle_type) + ')'; }
        row(T('booking.service_row', { Name: svc ? svc.getAttribute('data-name') : '' }), detail, euros(b.base_price));
        form.querySelectorAll('input[name="additional_services"]:checked').forEach(function (i) {
          var price = i.closest('label').querySelector('.extra-price');
          row(i.getAttribute('data-name'), '', price ? price.textContent : '');
        });
        sum('total', euros(q.total));
      } else if (q.state === 'error') {
        row(T('ui.no_price'), q.message, '');
        sum('total', '—');
      } else {
        row(T('booking.calculating'), '', '');
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
      nextBtn.textContent = step === 3 ? T('booking.confirm') : T('booking.continue');
      document.title = step === 'done' ? T('booking.title_done', { Title: baseTitle }) : T('booking.title_step', { Step: step, Title: baseTitle });
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
      put('entry', d.entry || '');
      put('exit', d.exit || '');
      put('service', d.service || '');
      put('plate', d.plate || '');
      put('name', d.name || '');
      put('total', d.total || '');
      put('reference', d.reference || '');
      // The signed link of the answer (docs/manage-booking.md#the-token), as a path on this site;
      // without it, the lookup form.
      var manage = '/reserva';
      if (d.manage) {
        try { var u = new URL(d.manage, location.href); manage = u.pathname + u.search; } catch (e) { manage = '/reserva'; }
      }
      root.querySelector('[data-done-manage]').setAttribute('href', manage);
      // The booking's QR code (docs/manage-booking.md#arrival), served by the service.
      var qr = root.querySelector('[data-done-qr]');
      if (qr && d.reference) {
        qr.querySelector('[data-done-qr-img]').setAttribute('src', '/r/' + encodeURIComponent(d.reference) + '/qr.png');
        qr.hidden = false;
      }
      return true;
    }

    // One Idempotency-Key per booking attempt (docs/public-booking.md#retries-idempotency-key): a double tap, or a retry
    // of the same data after a network failure or a timeout, sends the same key, so
    // the booking is made once; changed data is a new attempt with a new key.
    var attempt = { key: null, body: null };

    function newKey() {
      if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
      var b = new Uint8Array(16);
      crypto.getRandomValues(b);
      return Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    }

    function attemptKey(body) {
      var text = JSON.stringify(body);
      if (attempt.body !== text) { attempt = { key: newKey(), body: text }; }
      return attempt.key;
    }

    function confirmBooking() {
      if (submitting) { return; }
      if (!step1Valid(true)) { goBackTo(1); return; }
      if (!step2Valid(true)) { goBackTo(2); return; }
      // docs/manage-booking.md#pages: the page asks for "He leído la política de privacidad"
      // before it books; the marketing consent is optional and separate.
      var ack = form.querySelector('#privacy_ack');
      var marketing = form.querySelector('#marketing_consent');
      if (ack && !ack.checked) {
        ui.fieldError(form, ack, T('booking.ack_missing'));
        ack.focus();
        return;
      }
      if (ack) { ui.fieldError(form, ack, ''); }
      var v = values();
      var body = {
        full_name: v.full_name.trim(), phone: v.phone.trim(), email: v.email.trim(),
        license_plate: v.license_plate.trim().toUpperCase(), vehicle_type: v.vehicle_type,
        brand: v.brand.trim(), model: v.model.trim(), entry_date: v.entry_date, exit_date: v.exit_date,
        id_main_service: Number(v.id_main_service), additional_services: v.additional_services.map(Number),
        privacy_ack: !!(ack && ack.checked), marketing_consent: !!(marketing && marketing.checked)
      };
      submitting = true;
      submitError.hidden = true;
      setBusy(nextBtn, true, T('booking.confirming'));
      backBtn.disabled = true;
      api('POST', '/api/reservations/public-new', body, { 'Idempotency-Key': attemptKey(body) }).then(function (r) {
        submitting = false;
        setBusy(nextBtn, false);
        backBtn.disabled = false;
        if (r.ok && r.data.success && r.data.data) {
          attempt = { key: null, body: null };
          var d = r.data.data;
          var svc = root.querySelector('input[name="id_main_service"]:checked');
          store(DONE_KEY, { id: d.id_reservation, entry: longDate(v.entry_date), exit: longDate(v.exit_date), service: svc ? svc.getAttribute('data-name') : '', plate: d.license_plate, name: d.customer_name, total: euros(d.total_price), reference: d.reference, manage: d.manage_url });
          store(KEY, null);
          history.replaceState({ bookingStep: 'done', depth: depth() }, '', urlFor('done'));
          show('done', true);
          form.reset();
          return;
        }
        if (r.status === 409 && r.data.full_days) { checkAvailability(true); }
        serverError(r.message || T('booking.failed'));
      });
    }

    // The booking's own phone rule before the last step (docs/input-rules.md#phones):
    // a phone abroad typed without its country code is asked for it here, in the
    // page's language, not refused after "Confirmar reserva". When the check
    // cannot answer (network, limit), the booking decides.
    var checkingPhone = false;
    function checkPhone() {
      if (checkingPhone) { return; }
      checkingPhone = true;
      setBusy(nextBtn, true, T('booking.checking'));
      api('POST', '/booking/check-phone', { phone: f.phone.value.trim() }).then(function (r) {
        checkingPhone = false;
        setBusy(nextBtn, false);
        if (current !== 2) { return; }
        if (r.ok && r.data && r.data.valid === false && r.data.message) {
          fieldError(form, f.phone, r.data.message);
          f.phone.focus();
          return;
        }
        go(3);
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

    // A customer who books with another phone books for that phone's customer
    // (docs/reservations.md#creation: customers are found by phone): say so while it is being typed.
    var accountNote = root.querySelector('[data-phone-account-note]');
    function checkAccountPhone() {
      if (accountNote) { accountNote.hidden = !f.phone.defaultValue || f.phone.value.trim() === f.phone.defaultValue.trim(); }
    }

    function onChange(e) {
      var name = e.target.name;
      save();
      if (name === 'phone') { checkAccountPhone(); }
      if (name === 'entry_date' || name === 'exit_date' || name === 'id_main_service' || name === 'additional_services') {
        if (name === 'id_main_service') { checkService(false); }
        if (name === 'entry_date' || name === 'exit_date') { checkAvailability(false); }
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
        if (step1Valid(true)) { go(2); } else if (avail.status === 'full') { availEl.focus(); } else { focusFirstInvalid(sections[1]); }
      } else if (current === 2) {
        tried2 = true;
        if (step2Valid(true)) { checkPhone(); } else { focusFirstInvalid(sections[2]); }
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
    checkAccountPhone();
    var start = history.state && history.state.bookingStep ? history.state.bookingStep : hashStep();
    var shown = show(start, false);
    history.replaceState({ bookingStep: shown, depth: depth() }, '', urlFor(shown));
    if (entry.value || exit.value) { checkDates(false); }
    checkAvailability(true);
    requote(true);
  }

  var root = document.querySelector('[data-booking]');
  if (root) { initBooking(root); }
})();
