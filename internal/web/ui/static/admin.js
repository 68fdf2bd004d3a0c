// Parking Aeropuerto: the administrator pages (admin_*.html, receipt.html), keyed on
// data-* attributes. Requests, busy buttons, field errors and the live quote come
// from customer.js (window.ParkingUI). After an action the page's regions
// ([data-region]) are read again from the server and swapped in, so the page always
// shows what the server holds without a second renderer here. No inline code (the
// content security policy forbids it), no dependencies, no build step.
(function () {
  'use strict';

  var ui = window.ParkingUI;
  if (!ui) { return; }
  var T = window.ParkingText.T; // the page's language (app.js)
  var api = ui.api;
  var setBusy = ui.setBusy;
  var showError = ui.showError;
  var fieldError = ui.fieldError;

  // ---------------------------------------------------------------- shared

  // flash shows the outcome of an action in the page's message line and moves
  // focus there, so that screen readers announce it.
  function flash(message, isError) {
    var old = document.querySelector('[data-flash-error]');
    if (old) { old.hidden = true; }
    var el = document.querySelector('[data-flash]');
    if (!el) { return; }
    el.textContent = message || '';
    el.classList.toggle('alert-error', !!isError);
    el.classList.toggle('alert-ok', !isError);
    el.setAttribute('role', isError ? 'alert' : 'status');
    el.hidden = !message;
    if (message) { el.focus(); }
  }

  // swapRegions reads this page again (its address without the query string, so no
  // old message comes back) and replaces the named [data-region] elements with the
  // server's. It rejects when the page could not be read or the session ended.
  function swapRegions(names) {
    return fetch(location.pathname, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } }).then(function (res) {
      if (res.redirected && /\/users\/login/.test(res.url)) { throw new Error(T('admin.session_expired')); }
      if (!res.ok) { throw new Error(T('admin.server_status', { Status: res.status })); }
      return res.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      names.forEach(function (name) {
        var sel = '[data-region="' + name + '"]';
        var cur = document.querySelector(sel);
        var next = doc.querySelector(sel);
        if (cur && next) { cur.replaceWith(document.importNode(next, true)); }
      });
    });
  }

  var REFRESH_FAILED = T('admin.refresh_failed');

  // Dialogs: [data-dialog] elements with a confirm and a dismiss button and an
  // error line. open() clears the error; Escape and "dismiss" close it.
  function dialog(el) {
    var err = el.querySelector('[data-dialog-error]');
    var confirmBtn = el.querySelector('[data-dialog-confirm]');
    el.querySelectorAll('[data-dialog-dismiss]').forEach(function (b) {
      b.addEventListener('click', function () { el.close(); });
    });
    return {
      el: el,
      confirm: confirmBtn,
      open: function () {
        showError(err, [], '');
        setBusy(confirmBtn, false);
        if (typeof el.showModal === 'function') { el.showModal(); } else { el.setAttribute('open', ''); }
        // The safe choice first where the action cannot be undone (not the HTML
        // autofocus attribute: the page already holds focus when it loads).
        var first = el.querySelector('[data-autofocus]');
        if (first) { first.focus(); }
      },
      error: function (message) { showError(err, [], message); },
      close: function () { if (el.open) { el.close(); } }
    };
  }

  // Plates and spot codes are upper-case: shown so as they are typed.
  document.addEventListener('input', function (e) {
    var el = e.target;
    if (!el.classList || !el.classList.contains('plate')) { return; }
    var up = el.value.toUpperCase();
    if (up !== el.value) {
      var pos = el.selectionStart;
      el.value = up;
      try { el.setSelectionRange(pos, pos); } catch (x) { /* not a text input */ }
    }
  });

  // "2026-11-21T10:00:00+01:00" → "21/11/2026 10:00": the server already gives the
  // facility's local time, so the text is cut, not converted to the browser's zone.
  function localText(iso) {
    if (!iso) { return ''; }
    return window.ParkingText.dateTime(iso);
  }

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) { e.className = className; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }

  // The body of a quote (POST /api/pricing/dynamic) from a form's fields; a
  // missing exit is priced as the minimum day (docs/errors.md#operation-responses), like the server does.
  function quoteBody(form, useDefaults) {
    var e = form.elements;
    function val(name) {
      var f = e[name];
      if (!f) { return ''; }
      if (f.tagName === 'SELECT') {
        if (!useDefaults) { return f.value; }
        for (var i = 0; i < f.options.length; i++) { if (f.options[i].defaultSelected) { return f.options[i].value; } }
        return f.options.length ? f.options[0].value : '';
      }
      return useDefaults ? f.defaultValue : f.value;
    }
    var entry = val('entry_date');
    var exit = val('exit_date');
    var extras = Array.prototype.filter.call(form.querySelectorAll('input[type="checkbox"][name="additional_services"]'), function (c) {
      return useDefaults ? c.defaultChecked : c.checked;
    }).map(function (c) { return +c.value; });
    if (!entry) { return null; }
    return {
      entry_date: entry, exit_date: exit || entry, vehicle_type: val('vehicle_type'),
      id_main_service: +val('id_main_service'), additional_services: extras, _exitMissing: !exit
    };
  }

  function wireBody(b) {
    return { entry_date: b.entry_date, exit_date: b.exit_date, vehicle_type: b.vehicle_type, id_main_service: b.id_main_service, additional_services: b.additional_services };
  }

  // ---------------------------------------------------------------- detail

  function initDetail(root) {
    var id = root.getAttribute('data-detail');
    var base = '/admin/reservations/' + id;
    var ALL = ['head', 'summary', 'photos', 'handover', 'notifications', 'form'];
    var BUSY = { start: T('admin.starting'), finalize: T('admin.finalizing'), cancel: T('admin.cancelling'), fullinvoice: T('admin.requesting') };
    var dialogs = {};
    root.querySelectorAll('dialog[data-dialog]').forEach(function (d) {
      var dlg = dialog(d);
      var action = d.getAttribute('data-dialog');
      dialogs[action] = dlg;
      dlg.confirm.addEventListener('click', function () { confirmAction(action, dlg); });
      d.addEventListener('change', function () { dlg.error(''); });
    });

    function refresh(names, message) {
      return swapRegions(names).then(function () {
        if (message) { flash(message); }
      }, function (err) {
        flash((message ? message + ' ' : '') + (err && err.message ? err.message + ' ' : '') + REFRESH_FAILED, true);
      });
    }

    function openDialog(action) {
      var dlg = dialogs[action];
      if (!dlg) { return; }
      dlg.el.querySelectorAll('.handover-fields input, .handover-fields textarea').forEach(function (f) {
        if (f.type === 'checkbox') { f.checked = false; } else { f.value = ''; }
      });
      if (action === 'finalize') {
        dlg.el.querySelectorAll('input[name="paymentMethod"]').forEach(function (r) { r.checked = false; });
        checkoutPreview(dlg);
      }
      dlg.open();
    }

    // docs/exit.md#checkout-preview: the amount a finalize at this moment charges
    // (GET …/checkout, the finalize's own rule), shown in the dialog and sent back
    // as expected_total, so the amount shown is the amount charged or nothing is.
    function showCheckout(el, c) {
      var set = function (sel, text) { var e = el.querySelector(sel); if (e) { e.textContent = text; } };
      set('[data-dialog-total]', ui.euros(c.total_price));
      set('[data-checkout-booked]', ui.euros(c.booked_price));
      set('[data-checkout-excess]', c.excess > 0 ? ui.euros(c.excess) : '');
      set('[data-checkout-exit]', localText(c.exit_date));
      var row = el.querySelector('[data-checkout-excess-row]');
      if (row) { row.hidden = !(c.excess > 0); }
      var late = el.querySelector('[data-checkout-overdue]');
      if (late) { late.hidden = !c.overdue; }
      var exp = el.querySelector('[data-checkout-expected]');
      if (exp) { exp.value = Number(c.total_price).toFixed(2); }
    }

    function checkoutPreview(dlg) {
      if (!dlg.el.querySelector('[data-checkout]')) { return; }
      dlg.el.removeAttribute('data-checkout-ready');
      dlg.el.setAttribute('aria-busy', 'true');
      api('GET', base + '/checkout').then(function (r) {
        dlg.el.removeAttribute('aria-busy');
        if (!r.ok) { dlg.error(r.message); return; }
        showCheckout(dlg.el, r.data);
        dlg.el.setAttribute('data-checkout-ready', '');
      });
    }

    // docs/reservations.md#transitions: PATCH …/start, …/finalize {paymentMethod},
    // …/cancel; a refusal is shown in the dialog, which stays open.
    function confirmAction(action, dlg) {
      var body;
      if (action === 'finalize') {
        var chosen = dlg.el.querySelector('input[name="paymentMethod"]:checked');
        if (!chosen) {
          dlg.error(T('admin.pay_method'));
          dlg.el.querySelector('input[name="paymentMethod"]').focus();
          return;
        }
        body = { paymentMethod: chosen.value };
        var exp = dlg.el.querySelector('[data-checkout-expected]');
        if (exp && exp.value) { body.expected_total = Number(exp.value); }
      }
      // docs/photos.md: the hand-over (mileage, fuel or charge level, damage notes),
      // sent only when typed.
      dlg.el.querySelectorAll('.handover-fields [name]').forEach(function (f) {
        if (f.type === 'checkbox') { // keys_handed_over: a boolean, sent always
          body = body || {};
          body[f.name] = f.checked;
          return;
        }
        var v = f.value.trim();
        if (!v) { return; }
        body = body || {};
        body[f.name] = v;
      });
      if (action === 'start') {
        // docs/reservations.md#check-in-on-a-phone: the spot goes with the start.
        var spotIn = dlg.el.querySelector('[data-start-spot]');
        if (spotIn) {
          var spot = spotIn.value.trim().toUpperCase();
          if (!spot) { dlg.error(T('admin.spot_missing')); spotIn.focus(); return; }
          body = body || {};
          body.cod_parking_spot = spot;
        }
      }
      var method = 'PATCH', path = base + '/' + action;
      if (action === 'fullinvoice') {
        // docs/receipts.md#full-invoice-factura-completa: a full invoice with the customer's tax id and address.
        var f = dlg.el.querySelector('[data-fullinvoice-form]').elements;
        body = { tax_id: f.tax_id.value.trim(), name: f.name.value.trim(), address: f.address.value.trim() };
        if (!body.tax_id || !body.address) {
          dlg.error(T('admin.invoice_fields'));
          (body.tax_id ? f.address : f.tax_id).focus();
          return;
        }
        method = 'POST';
        path = base + '/invoice';
      }
      setBusy(dlg.confirm, true, BUSY[action]);
      (action === 'start' ? startPhotos(dlg) : Promise.resolve('')).then(function (failed) {
        if (failed) { setBusy(dlg.confirm, false); dlg.error(failed); return null; }
        return api(method, path, body);
      }).then(function (r) {
        if (!r) { return; }
        if (!r.ok) {
          setBusy(dlg.confirm, false);
          // The amount due changed since it was shown: show the new one, which
          // the next confirmation charges.
          if (action === 'finalize' && r.status === 409 && r.data.total_price !== undefined) { checkoutPreview(dlg); }
          dlg.error(r.message);
          return;
        }
        refresh(ALL, r.data.message).then(function () {
          setBusy(dlg.confirm, false);
          dlg.close();
          var f = document.querySelector('[data-flash]');
          if (f && !f.hidden) { f.focus(); }
        });
      });
    }

    // The check-in dialog's photos (docs/reservations.md#check-in-on-a-phone): the
    // camera's files go in one multipart POST …/photos as entry photos before the
    // start, which counts them; resolves to '' or the refusal's words.
    function startPhotos(dlg) {
      var input = dlg.el.querySelector('[data-start-photos]');
      if (!input || !input.files || !input.files.length) { return Promise.resolve(''); }
      var data = new FormData();
      Array.prototype.forEach.call(input.files, function (f) { data.append('file', f, f.name); });
      data.append('phase', 'entrada');
      return fetch(base + '/photos', { method: 'POST', body: data, headers: { 'Accept': 'application/json' }, credentials: 'same-origin' })
        .then(function (res) {
          return res.json().catch(function () { return null; }).then(function (r) {
            if (res.status !== 201 || !r || !r.success) { return (r && r.message) || T('admin.upload_status', { Status: res.status }); }
            input.value = '';
            var st = dlg.el.querySelector('[data-start-photos-status]');
            if (st) { st.textContent = T('admin.n_of', { N: r.photo_count, Needed: st.getAttribute('data-photos-needed') }); }
            return '';
          });
        }, function () { return T('admin.offline_upload'); });
    }

    // A suggested free spot fills the dialog's spot field.
    root.addEventListener('click', function (e) {
      var b = e.target.closest('[data-spot-pick]');
      if (!b) { return; }
      var f = root.querySelector('[data-start-spot]');
      if (f) { f.value = b.getAttribute('data-spot-pick'); f.focus(); }
    });
    root.addEventListener('change', function (e) {
      if (!e.target.matches || !e.target.matches('[data-start-photos]')) { return; }
      var st = root.querySelector('[data-start-photos-status]');
      var n = e.target.files ? e.target.files.length : 0;
      if (st && n) { st.textContent = T('admin.photos_chosen', { Count: n }); }
    });

    function invoice(btn) {
      setBusy(btn, true, T('admin.sending'));
      api('POST', base + '/invoice').then(function (r) {
        setBusy(btn, false);
        if (!r.ok) { flash(r.message, true); return; }
        refresh(['notifications'], r.data.message);
      });
    }

    root.addEventListener('click', function (e) {
      var btn = e.target.closest('[data-action]');
      if (!btn || btn.disabled) { return; }
      var action = btn.getAttribute('data-action');
      if (action === 'invoice') { invoice(btn); } else { openDialog(action); }
    });

    // Photos: POST …/photos {file_path, description}; then the gallery, the count
    // and the start button come back from the server.
    function addPhoto(form) {
      var input = form.elements.file_path;
      var desc = form.elements.description;
      var msg = form.querySelector('[data-photo-msg]');
      var url = input.value.trim();
      fieldError(form, input, '');
      if (msg) { msg.hidden = true; }
      if (!url) { fieldError(form, input, T('admin.url_missing')); input.focus(); return; }
      if (!/^https?:\/\/[^\s]+$/i.test(url)) { fieldError(form, input, T('admin.url_scheme')); input.focus(); return; }
      var btn = form.querySelector('button[type="submit"]');
      setBusy(btn, true, T('admin.adding'));
      api('POST', base + '/photos', { file_path: url, description: desc.value.trim() }).then(function (r) {
        if (!r.ok) {
          setBusy(btn, false);
          fieldError(form, input, r.message);
          input.focus();
          return;
        }
        var n = r.data.photo_count;
        swapRegions(['head', 'photos']).then(function () {
          var region = document.querySelector('[data-region="photos"]');
          var needed = +region.getAttribute('data-photos-needed');
          var m = region.querySelector('[data-photo-msg]');
          var text = T('admin.photo_added', { N: n, Needed: needed });
          if (n >= needed) { text += ' ' + T('admin.all_photos'); }
          if (m) { m.textContent = text; m.hidden = false; }
          var next = region.querySelector('[data-photo-form] input[name="file_path"]');
          if (next) { next.focus(); }
        }, function (err) {
          setBusy(btn, false);
          flash(T('admin.photo_added_n', { N: n }) + ' ' + (err.message || '') + ' ' + REFRESH_FAILED, true);
        });
      });
    }

    // Photos from the camera (docs/photos.md): the chosen or dropped files go in one
    // multipart POST …/photos, with the upload's progress on a bar; the answer's
    // photo_count updates the count toward the five at once, then the gallery and
    // the start button come back from the server.
    var uploading = false;
    function uploadPhotos(form, files) {
      var bar = form.querySelector('[data-upload-progress]');
      var msg = form.querySelector('[data-upload-msg]');
      var btn = form.querySelector('[data-upload-submit]');
      function say(text, isError) {
        msg.textContent = text;
        msg.classList.toggle('form-error', !!isError);
        msg.hidden = !text;
      }
      files = Array.prototype.slice.call(files || []);
      if (!files.length) { say(T('admin.choose_photo'), true); return; }
      if (uploading) { return; }
      var tooBig = files.filter(function (f) { return f.size > 15 * 1024 * 1024; });
      if (tooBig.length) { say(T('admin.too_big', { Name: tooBig[0].name }), true); return; }
      var data = new FormData();
      files.forEach(function (f) { data.append('file', f, f.name); });
      data.append('phase', form.elements.phase.value);
      data.append('description', form.elements.description.value.trim());
      var xhr = new XMLHttpRequest();
      xhr.open('POST', form.getAttribute('action'));
      xhr.setRequestHeader('Accept', 'application/json');
      uploading = true;
      setBusy(btn, true, T('admin.uploading'));
      bar.hidden = false;
      bar.value = 0;
      bar.textContent = '0 %';
      form.setAttribute('data-state', 'uploading');
      say(files.length === 1 ? T('admin.uploading_one') : T('admin.uploading_n', { Count: files.length }));
      xhr.upload.addEventListener('progress', function (e) {
        if (!e.lengthComputable) { return; }
        var pct = Math.round(100 * e.loaded / e.total);
        bar.value = pct;
        bar.textContent = pct + ' %';
      });
      function done(ok, text) {
        uploading = false;
        setBusy(btn, false);
        form.setAttribute('data-state', ok ? 'done' : 'error');
        if (!ok) { bar.hidden = true; say(text, true); }
      }
      xhr.addEventListener('error', function () { done(false, T('admin.offline_upload')); });
      xhr.addEventListener('load', function () {
        var r = null;
        try { r = JSON.parse(xhr.responseText); } catch (e) { r = null; }
        if (xhr.status !== 201 || !r || !r.success) {
          done(false, (r && r.message) || T('admin.upload_status', { Status: xhr.status }));
          return;
        }
        bar.value = 100;
        var n = r.photo_count;
        var region = document.querySelector('[data-region="photos"]');
        var needed = +region.getAttribute('data-photos-needed');
        var badge = region.querySelector('[data-photo-count]');
        if (badge) {
          badge.textContent = T('admin.n_of', { N: n, Needed: needed });
          badge.setAttribute('data-photo-count', n);
          badge.classList.toggle('count-done', n >= needed);
        }
        var text = r.photos.length === 1 ? T('admin.uploaded_one', { N: n, Needed: needed }) : T('admin.uploaded_n', { Count: r.photos.length, N: n, Needed: needed });
        if (n >= needed) { text += ' ' + T('admin.all_photos'); }
        say(text);
        swapRegions(['head', 'photos']).then(function () {
          uploading = false;
          var f = document.querySelector('[data-photo-upload]');
          if (f) {
            f.setAttribute('data-state', 'done');
            var m = f.querySelector('[data-upload-msg]');
            m.textContent = text;
            m.hidden = false;
          }
        }, function (err) {
          done(true);
          flash(text + ' ' + (err.message || '') + ' ' + REFRESH_FAILED, true);
        });
      });
      xhr.send(data);
    }

    root.addEventListener('change', function (e) {
      if (e.target.matches && e.target.matches('[data-photo-upload] input[type="file"]')) {
        var form = e.target.closest('[data-photo-upload]');
        uploadPhotos(form, e.target.files);
      }
    });
    // Drag and drop on a desktop: files dropped on the box upload like chosen ones.
    ['dragenter', 'dragover'].forEach(function (type) {
      root.addEventListener(type, function (e) {
        var zone = e.target.closest && e.target.closest('[data-dropzone]');
        if (!zone) { return; }
        e.preventDefault();
        zone.classList.add('dropzone-over');
      });
    });
    root.addEventListener('dragleave', function (e) {
      var zone = e.target.closest && e.target.closest('[data-dropzone]');
      if (zone) { zone.classList.remove('dropzone-over'); }
    });
    root.addEventListener('drop', function (e) {
      var zone = e.target.closest && e.target.closest('[data-dropzone]');
      if (!zone) { return; }
      e.preventDefault();
      zone.classList.remove('dropzone-over');
      uploadPhotos(zone.closest('[data-photo-upload]'), e.dataTransfer && e.dataTransfer.files);
    });

    // The update form posts itself (303 back with ?updated=true or ?error=…);
    // before that, the rules the server would refuse are checked here.
    function checkEdit(form, e) {
      var f = form.elements;
      var errs = [];
      function bad(input, message) { fieldError(form, input, message); errs.push(input); }
      ['phone', 'email', 'exit_date', 'cod_parking_spot'].forEach(function (n) { if (f[n]) { fieldError(form, f[n], ''); } });
      if (!f.phone.value.trim()) { bad(f.phone, T('admin.phone_required')); }
      if (f.email.value.trim() && !ui.validEmail(f.email)) { bad(f.email, ui.MSG.email); }
      if (f.phone.value.trim() && !ui.validPhone(f.phone.value)) { bad(f.phone, ui.MSG.phone); }
      if (f.exit_date.value && f.entry_date.value && f.exit_date.value <= f.entry_date.value) {
        bad(f.exit_date, T('ui.exit_after_entry'));
      }
      if (form.getAttribute('data-status') === 'EN CURSO' && !f.cod_parking_spot.value.trim()) {
        bad(f.cod_parking_spot, T('admin.spot_required'));
      }
      if (errs.length) {
        e.preventDefault();
        errs[0].focus();
        return;
      }
      setBusy(form.querySelector('[data-edit-save]'), true, T('profile.saving'));
    }

    // The update form's price preview: once something that prices changes, the
    // new total from POST /api/pricing/dynamic (the server reprices on save).
    function editQuoter(form) {
      if (form._quoter) { return form._quoter; }
      var box = form.querySelector('[data-edit-quote]');
      var total = box.querySelector('[data-edit-quote-total]');
      var note = box.querySelector('[data-edit-quote-note]');
      var current = form.getAttribute('data-total');
      var initial = JSON.stringify(wireBody(quoteBody(form, true)));
      var quote = ui.makeQuoter(function (s) {
        box.setAttribute('data-state', s.state);
        if (s.state === 'idle') {
          box.firstElementChild.textContent = T('admin.current_total');
          total.textContent = current;
          note.textContent = T('admin.recalc_note');
        } else if (s.state === 'loading') {
          note.textContent = T('admin.calc_new');
        } else if (s.state === 'ok') {
          box.firstElementChild.textContent = T('admin.new_total');
          total.textContent = ui.euros(s.total);
          box.setAttribute('data-total', s.total);
          note.textContent = T(form.elements.exit_date.value ? 'admin.now_on_save' : 'admin.now_no_exit', { Total: current });
        } else {
          note.textContent = s.message;
        }
      });
      form._quoter = function () {
        var b = quoteBody(form, false);
        if (!b || JSON.stringify(wireBody(b)) === initial) { quote(null); return; }
        if (b.exit_date <= b.entry_date && !b._exitMissing) { quote(null); note.textContent = T('ui.exit_after_entry'); box.setAttribute('data-state', 'error'); return; }
        var w = wireBody(b);
        w.id_reservation = +form.getAttribute('data-reservation-id'); // priced as this edit (docs/pricing.md#repricing-an-edit)
        quote(w);
      };
      return form._quoter;
    }

    root.addEventListener('submit', function (e) {
      var form = e.target;
      if (form.matches('[data-photo-form]')) { e.preventDefault(); addPhoto(form); }
      if (form.matches('[data-photo-upload]')) { e.preventDefault(); uploadPhotos(form, form.elements.file.files); }
      if (form.matches('[data-edit-detail]')) { checkEdit(form, e); }
    });
    function quoteChange(e) {
      if (!e.target.matches || !e.target.matches('[data-quote-field]')) { return; }
      var form = e.target.closest('[data-edit-detail]');
      if (form) { editQuoter(form)(); }
    }
    root.addEventListener('change', quoteChange);
    root.addEventListener('input', quoteChange);

    var err = document.querySelector('[data-flash-error]');
    var ok = document.querySelector('[data-flash]:not([hidden])');
    if (err) { err.focus(); } else if (ok) { ok.focus(); }
  }

  // ---------------------------------------------------------------- walk-in

  // Which field a refusal of the walk-in is about, from its (Spanish) message.
  var WALKIN_FIELDS = [
    [/matr[ií]cula|license_plate/i, 'license_plate'], [/tel[eé]fono|phone/i, 'phone'], [/plaza|spot/i, 'cod_parking_spot'],
    [/salida|exit/i, 'exit_date'], [/entrada|entry/i, 'entry_date'], [/correo|email/i, 'email'],
    [/tipo de veh|vehicle_type|coeficiente/i, 'vehicle_type'], [/nombre|full_name/i, 'full_name']
  ];

  function initWalkIn(form) {
    var f = form.elements;
    var alertEl = document.querySelector('[data-form-error]');
    var box = form.querySelector('[data-walkin-price]');
    var total = box.querySelector('[data-walkin-total]');
    var note = box.querySelector('[data-walkin-note]');
    var submit = form.querySelector('[data-walkin-submit]');

    var quote = ui.makeQuoter(function (s) {
      box.setAttribute('data-state', s.state);
      if (s.state === 'idle') { total.textContent = '—'; note.textContent = T('admin.calc_on_dates'); }
      else if (s.state === 'loading') { note.textContent = T('admin.calculating'); }
      else if (s.state === 'ok') {
        total.textContent = ui.euros(s.total);
        box.setAttribute('data-total', Number(s.total).toFixed(2));
        note.textContent = s.breakdown ? ui.daysText(s.breakdown.days) + (f.exit_date.value ? '' : T('admin.no_exit_day')) : '';
      } else { total.textContent = '—'; note.textContent = s.message; }
    });
    function update(immediate) {
      var b = quoteBody(form, false);
      if (!b) { quote(null); return; }
      if (!b._exitMissing && b.exit_date <= b.entry_date) {
        quote(null);
        box.setAttribute('data-state', 'error');
        note.textContent = T('ui.exit_after_entry');
        return;
      }
      quote(wireBody(b), immediate);
    }
    form.addEventListener('change', function (e) { if (e.target.matches('[data-quote-field]')) { update(); } });
    form.addEventListener('input', function (e) { if (e.target.matches('[data-quote-field]')) { update(); } });
    update(true);

    // docs/reservations.md#walk-in-lookup: a known phone or plate fills the empty
    // fields with the customer and the vehicle of their latest booking.
    var known = form.querySelector('[data-known-status]');
    function fillKnown(param, value) {
      if (!value.trim()) { return; }
      api('GET', '/admin/customers/known?' + param + '=' + encodeURIComponent(value.trim())).then(function (r) {
        if (!r.ok || !r.data.found) { return; }
        var c = r.data.customer, v = r.data.vehicle, filled = false;
        var put = function (name, val) {
          if (f[name] && val && !f[name].value.trim()) { f[name].value = val; filled = true; }
        };
        put('full_name', c.full_name); put('phone', c.phone); put('email', c.email);
        put('license_plate', v.license_plate); put('brand', v.brand); put('model', v.model); put('color', v.color);
        if (v.vehicle_type && f.vehicle_type && f.vehicle_type.querySelector('option[value="' + v.vehicle_type + '"]')) {
          f.vehicle_type.value = v.vehicle_type;
          update();
        }
        if (filled && known) { known.textContent = T('admin.customer_found'); known.hidden = false; }
      });
    }
    f.phone.addEventListener('change', function () { fillKnown('phone', f.phone.value); });
    f.license_plate.addEventListener('change', function () { fillKnown('plate', f.license_plate.value); });

    function clearErrors() {
      ['phone', 'full_name', 'email', 'license_plate', 'vehicle_type', 'entry_date', 'exit_date', 'cod_parking_spot'].forEach(function (n) {
        fieldError(form, f[n], '');
      });
      showError(alertEl, [], '');
    }

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      clearErrors();
      var errs = [];
      function bad(name, message) { fieldError(form, f[name], message); errs.push(f[name]); }
      if (!f.phone.value.trim()) { bad('phone', T('admin.phone_required')); }
      else if (!ui.validPhone(f.phone.value)) { bad('phone', ui.MSG.phone); }
      if (f.email.value.trim() && !ui.validEmail(f.email)) { bad('email', ui.MSG.email); }
      if (!f.license_plate.value.trim()) { bad('license_plate', T('admin.plate_required')); }
      else if (!ui.validPlate(f.license_plate.value)) { bad('license_plate', ui.MSG.plate); }
      if (!f.entry_date.value) { bad('entry_date', T('admin.entry_missing')); }
      if (f.exit_date.value && f.entry_date.value && f.exit_date.value <= f.entry_date.value) { bad('exit_date', T('ui.exit_after_entry')); }
      if (errs.length) {
        showError(alertEl, [], T('admin.check_fields'));
        errs[0].focus();
        return;
      }
      var body = {
        phone: f.phone.value.trim(), full_name: f.full_name.value.trim(), email: f.email.value.trim(),
        license_plate: f.license_plate.value.trim().toUpperCase(), brand: f.brand.value.trim(), model: f.model.value.trim(),
        color: f.color.value.trim(), vehicle_type: f.vehicle_type.value, entry_date: f.entry_date.value,
        exit_date: f.exit_date.value, id_main_service: +f.id_main_service.value,
        additional_services: ui.checkedValues(form, 'additional_services').map(Number),
        cod_parking_spot: f.cod_parking_spot.value.trim(), notes: f.notes.value.trim(), language: f.language.value,
        override_capacity: !!(f.override_capacity && f.override_capacity.checked)
      };
      setBusy(submit, true, T('admin.creating'));
      api('POST', '/admin/reservations/new', body).then(function (r) {
        if (r.ok && r.data.success && r.data.data) {
          location.assign('/admin/reservations/details/' + r.data.data.id_reservation + '?created=true');
          return;
        }
        setBusy(submit, false);
        showError(alertEl, [], r.message);
        alertEl.focus();
        for (var i = 0; i < WALKIN_FIELDS.length; i++) {
          if (WALKIN_FIELDS[i][0].test(r.message)) { fieldError(form, f[WALKIN_FIELDS[i][1]], r.message); break; }
        }
      });
    });
  }

  // ---------------------------------------------------------------- history

  function initHistoryFilters(form) {
    form.addEventListener('submit', function (e) {
      var pairs = [['dateFrom', 'dateTo', T('admin.arrival')], ['bookedFrom', 'bookedTo', T('admin.booked')]];
      for (var i = 0; i < pairs.length; i++) {
        var from = form.elements[pairs[i][0]], to = form.elements[pairs[i][1]];
        to.removeAttribute('aria-invalid');
        if (from.value && to.value && from.value > to.value) {
          e.preventDefault();
          var p = form.querySelector('[data-filter-error]');
          if (!p) {
            p = el('p', 'field-error');
            p.setAttribute('data-filter-error', '');
            p.setAttribute('role', 'alert');
            form.appendChild(p);
          }
          p.textContent = T('admin.range_order', { Field: pairs[i][2] });
          to.setAttribute('aria-invalid', 'true');
          to.focus();
          return;
        }
      }
      // Empty filters are left out of the address.
      Array.prototype.forEach.call(form.elements, function (f) {
        if (f.name && !f.value) { f.disabled = true; }
      });
      setBusy(form.querySelector('button[type="submit"]'), true, T('admin.searching'));
    });
    // Coming back with the browser's back button: fields enabled again.
    window.addEventListener('pageshow', function () {
      Array.prototype.forEach.call(form.elements, function (f) { f.disabled = false; });
      setBusy(form.querySelector('button[type="submit"]'), false);
    });
  }

  // ---------------------------------------------------------------- parking

  // The live board: GET /admin/parking/events (server-sent events) says that the
  // board changed; the board is then read again from GET /admin/parking as JSON.
  // On every (re)connection it is read too, since events missed meanwhile are not
  // replayed. The browser retries a dropped stream by itself; a refused one
  // (session over, server down) is retried here, waiting longer each time.
  function initParking(root) {
    var live = root.querySelector('[data-live]');
    var liveText = root.querySelector('[data-live-text]');
    var errorEl = root.querySelector('[data-board-error]');
    var detailURL = root.getAttribute('data-detail-url');
    var es = null;
    var retry = 1000;
    var loading = 0;
    var timer = null;
    var changed = {};
    var stopped = false;
    var pageSeq = root.getAttribute('data-seq'); // the feed's position the page was drawn at

    function setLive(state, text) {
      live.setAttribute('data-live', state);
      liveText.textContent = text;
    }

    function spotItem(sp) {
      var r = sp.reservation;
      var li = el('li', 'spot spot-' + sp.status);
      li.setAttribute('data-spot', sp.code);
      li.setAttribute('data-status', sp.status);
      var head = el('div', 'spot-head');
      head.appendChild(el('span', 'spot-code', sp.code));
      head.appendChild(el('span', 'spot-state', sp.status === 'occupied' ? T('admin.occupied') : T('admin.booked_today')));
      li.appendChild(head);
      if (r.overdue) { // still in after its exit date (docs/board.md#overdue)
        li.classList.add('spot-overdue');
        li.setAttribute('data-overdue', '');
        li.appendChild(el('p', 'overdue-badge', T('admin.overdue')));
      }
      var veh = el('p', 'spot-vehicle');
      veh.appendChild(el('span', 'plate-badge', r.license_plate));
      var desc = [r.brand, r.model].filter(function (x) { return x && x !== 'Desconocida' && x !== 'Desconocido'; }).join(' ');
      if (desc) { veh.appendChild(document.createTextNode(' ' + desc)); }
      li.appendChild(veh);
      li.appendChild(el('p', 'spot-who', r.customer_name));
      if (r.arrived_at && sp.status !== 'occupied') { // seen by a gate camera, not yet started (docs/gate.md#arrival)
        li.setAttribute('data-arrived', '');
        li.appendChild(el('p', 'pill arrived-badge', T('admin.gate_arrived', { When: localText(r.arrived_at) })));
      }
      li.appendChild(el('p', 'spot-when', T(sp.status === 'occupied' ? 'admin.arrived' : 'admin.arrives', { When: localText(r.entry_date) }) +
        (r.exit_date ? T('admin.leaves', { When: localText(r.exit_date) }) : '')));
      var a = el('a', 'spot-link', T('admin.booking_no', { ID: r.id_reservation }));
      a.href = detailURL + r.id_reservation;
      li.appendChild(a);
      if (sp.upcoming && sp.upcoming.length) {
        var next = el('p', 'spot-next', T('admin.then'));
        sp.upcoming.forEach(function (u, i) {
          if (i) { next.appendChild(document.createTextNode(', ')); }
          var l = el('a', '', u.license_plate);
          l.href = detailURL + u.id_reservation;
          next.appendChild(l);
          next.appendChild(document.createTextNode(' (' + localText(u.entry_date) + ')'));
        });
        li.appendChild(next);
      }
      if (changed[sp.code]) { li.classList.add('is-new'); }
      return li;
    }

    function render(b) {
      root.querySelector('[data-count="occupied"]').textContent = b.occupied;
      root.querySelector('[data-count="reserved"]').textContent = b.reserved;
      root.querySelector('[data-count="free"]').textContent = b.free === null || b.free === undefined ? '—' : b.free;
      root.querySelector('[data-capacity]').textContent = b.capacity ? T('admin.of_capacity', { Capacity: b.capacity }) : T('admin.no_capacity');
      root.querySelector('[data-updated]').textContent = b.updated_at.slice(11, 19);
      root.querySelector('[data-day]').textContent = '(' + b.day.slice(8, 10) + '/' + b.day.slice(5, 7) + '/' + b.day.slice(0, 4) + ')';
      var list = document.createDocumentFragment();
      b.spots.forEach(function (sp) { list.appendChild(spotItem(sp)); });
      root.querySelector('[data-spots]').replaceChildren(list);
      root.querySelector('[data-spots-empty]').hidden = b.spots.length > 0;
      changed = {};
    }

    function load() {
      var mine = ++loading;
      return api('GET', root.getAttribute('data-board-url')).then(function (r) {
        if (mine !== loading) { return; }
        if (r.status === 401) { sessionOver(); return; }
        if (!r.ok) {
          errorEl.textContent = T('admin.board_failed', { Error: r.message });
          errorEl.hidden = false;
          return;
        }
        errorEl.hidden = true;
        render(r.data);
      });
    }

    function sessionOver() {
      stopped = true;
      if (es) { es.close(); es = null; }
      setLive('closed', T('admin.offline'));
      errorEl.textContent = T('admin.board_session');
      var a = el('a', '', ' ' + T('admin.sign_in'));
      a.href = '/users/login?loginType=worker';
      errorEl.appendChild(a);
      errorEl.hidden = false;
    }

    // Several events in a burst make one reading of the board.
    function schedule() {
      clearTimeout(timer);
      timer = setTimeout(load, 120);
    }

    function connect() {
      if (stopped) { return; }
      es = new EventSource(root.getAttribute('data-events-url'));
      es.addEventListener('open', function () {
        retry = 1000;
        setLive('open', T('admin.live'));
      });
      // The stream's first event gives the feed's position. On the page's first
      // connection, a position equal to the one the page was drawn at means nothing
      // changed since: the board on the page is current. Otherwise (and on every
      // reconnection, events may have been missed) the board is read again.
      es.addEventListener('hello', function (e) {
        var seq = null;
        try { seq = String(JSON.parse(e.data).seq); } catch (x) { /* read the board again */ }
        var current = pageSeq !== null && seq === pageSeq;
        pageSeq = null;
        if (!current) { load(); }
      });
      es.addEventListener('parking', function (e) {
        try {
          var ev = JSON.parse(e.data);
          if (ev.cod_parking_spot) { changed[ev.cod_parking_spot] = true; }
        } catch (x) { /* the board is read again anyway */ }
        schedule();
      });
      es.addEventListener('error', function () {
        if (es && es.readyState === EventSource.CLOSED) {
          es.close();
          es = null;
          setLive('closed', T('admin.retrying'));
          // Is the session over? The board's JSON answers 401 then.
          load().then(function () {
            if (!stopped) { setTimeout(connect, retry); retry = Math.min(retry * 2, 30000); }
          });
        } else {
          setLive('reconnecting', T('admin.reconnecting'));
        }
      });
    }

    if (typeof EventSource === 'undefined') {
      setLive('closed', T('admin.no_auto'));
      return;
    }
    setLive('connecting', T('admin.connecting'));
    connect();
    window.addEventListener('pagehide', function () { if (es) { es.close(); } });
  }

  // ---------------------------------------------------------------- catalog

  // Which fields a catalog refusal is about, from its message: the fields it
  // names (min_days, max_days…), else the ones its words point to.
  var CATALOG_FIELDS = [
    [/solapa/i, ['min_days', 'max_days']], [/precio diario|daily_price/i, ['daily_price']], [/precio|price/i, ['price']],
    [/coeficiente/i, ['coefficient']], [/tipo de veh/i, ['vehicle_type']], [/nombre|name/i, ['name']]
  ];

  function initCatalog(root) {
    var delDialog = root.querySelector('[data-dialog="delete-rate"]');
    var del = delDialog ? dialog(delDialog) : null;
    var deleting = null;

    function message(form, text, isError) {
      var m = form.querySelector('[data-cat-msg]');
      if (!m) { flash(text, isError); return; }
      m.textContent = text;
      m.classList.toggle('is-error', !!isError);
      m.setAttribute('role', isError ? 'alert' : 'status');
      m.hidden = !text;
    }

    function bodyOf(form) {
      var out = {};
      Array.prototype.forEach.call(form.elements, function (f) {
        if (!f.name || f.disabled || f.tagName === 'BUTTON') { return; }
        if (f.type === 'hidden' && f.name === 'active') { return; }
        if (f.type === 'checkbox') { out[f.name] = f.checked; return; }
        out[f.name] = f.value.trim();
      });
      return out;
    }

    function clearInvalid(form) {
      form.querySelectorAll('[aria-invalid]').forEach(function (i) { i.removeAttribute('aria-invalid'); });
    }

    // markInvalid marks the fields a refusal names: the answer's fields (by their
    // names in the request), else the ones its words point to.
    function markInvalid(form, text, fields) {
      var names = (fields || []).filter(function (n) { return form.elements[n]; });
      if (!names.length) {
        names = ['min_days', 'max_days', 'daily_price', 'coefficient'].filter(function (n) { return text.indexOf(n) >= 0; });
      }
      for (var i = 0; !names.length && i < CATALOG_FIELDS.length; i++) {
        if (CATALOG_FIELDS[i][0].test(text)) { names = CATALOG_FIELDS[i][1]; }
      }
      var first = null;
      names.forEach(function (name) {
        var input = form.elements[name];
        if (input && input.setAttribute) { input.setAttribute('aria-invalid', 'true'); first = first || input; }
      });
      if (first) { first.focus(); }
    }

    // After a change the catalog region comes back from the server; the message is
    // shown on the form that was used (found again by its first field's id), or on
    // the service's "new rate" form after a deletion, and focus goes back there.
    function after(anchorID, text) {
      return swapRegions(['catalog']).then(function () {
        var anchor = document.getElementById(anchorID);
        if (anchor && anchor.form) {
          message(anchor.form, text);
          anchor.focus();
        } else {
          flash(text);
        }
      }, function (err) {
        flash(text + ' ' + (err.message || '') + ' ' + REFRESH_FAILED, true);
      });
    }

    function save(form, btn) {
      clearInvalid(form);
      message(form, '');
      var missing = Array.prototype.filter.call(form.querySelectorAll('input[required]'), function (i) { return !i.value.trim(); });
      if (missing.length) {
        missing.forEach(function (i) { i.setAttribute('aria-invalid', 'true'); });
        message(form, T('admin.complete_fields'), true);
        missing[0].focus();
        return;
      }
      var anchor = form.querySelector('input[id]');
      setBusy(btn, true, T('profile.saving'));
      api(form.getAttribute('data-method'), form.getAttribute('action'), bodyOf(form)).then(function (r) {
        if (!r.ok) {
          setBusy(btn, false);
          message(form, r.message, true);
          markInvalid(form, r.message, r.data.fields);
          return;
        }
        after(anchor.id, r.data.message || 'Guardado.');
      });
    }

    if (del) {
      del.confirm.addEventListener('click', function () {
        if (!deleting) { return; }
        var d = deleting;
        setBusy(del.confirm, true, T('admin.deleting'));
        api('DELETE', '/admin/catalog/rates/' + d.id).then(function (r) {
          if (!r.ok) { setBusy(del.confirm, false); del.error(r.message); return; }
          del.close();
          after('rate-new-' + d.service + '-min', r.data.message || T('admin.rate_deleted'));
        });
      });
    }

    root.addEventListener('submit', function (e) {
      var form = e.target.closest('[data-cat-form]');
      if (!form) { return; }
      e.preventDefault();
      var submitter = e.submitter || form.querySelector('button[type="submit"]');
      if (submitter && submitter.hasAttribute('data-delete-rate') && del) {
        deleting = { id: submitter.getAttribute('data-delete-rate'), service: form.getAttribute('data-service') };
        del.el.querySelector('[data-dialog-days]').textContent = submitter.getAttribute('data-days');
        del.open();
        return;
      }
      save(form, submitter);
    });
  }

  // ---------------------------------------------------------------- receipt

  document.addEventListener('click', function (e) {
    if (e.target.closest && e.target.closest('[data-print]')) { window.print(); }
  });

  var detail = document.querySelector('[data-detail]');
  if (detail) { initDetail(detail); }
  var walkin = document.querySelector('[data-walkin]');
  if (walkin) { initWalkIn(walkin); }
  var filters = document.querySelector('[data-history-filters]');
  if (filters) { initHistoryFilters(filters); }
  var parking = document.querySelector('[data-parking]');
  if (parking) { initParking(parking); }
  var catalog = document.querySelector('[data-catalog]');
  if (catalog) { initCatalog(catalog); }
})();
