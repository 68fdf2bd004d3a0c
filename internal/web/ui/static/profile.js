// Parking Aeropuerto: the customer area of GET /users/profile (profile.html):
// personal data, password, edit and cancel of reservations, updated in place;
// helpers from customer.js (window.ParkingUI).
(function () {
  'use strict';
  var T = window.ParkingText.T; // the page's language (app.js)

  var ui = window.ParkingUI;
  var euros = ui.euros;
  var shortDate = ui.shortDate;
  var api = ui.api;
  var setBusy = ui.setBusy;
  var showError = ui.showError;
  var fieldError = ui.fieldError;
  var focusFirstInvalid = ui.focusFirstInvalid;
  var validPhone = ui.validPhone;
  var validEmail = ui.validEmail;
  var makeQuoter = ui.makeQuoter;
  var checkedValues = ui.checkedValues;
  var daysText = ui.daysText;

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
      profile: ['nombre', 'email', 'telefono', 'language'],
      password: ['currentPassword', 'newPassword', 'confirmPassword']
    };

    function checkAccount(kind, form) {
      var e = form.elements;
      var errs = {};
      if (kind === 'profile') {
        if (!e.nombre.value.trim()) { errs.nombre = T('profile.name_missing'); }
        if (!e.email.value.trim()) { errs.email = T('profile.email_missing'); }
        else if (!validEmail(e.email)) { errs.email = ui.MSG.email; }
        if (!e.telefono.value.trim()) { errs.telefono = T('profile.phone_missing'); }
        else if (!validPhone(e.telefono.value)) { errs.telefono = ui.MSG.phone; }
      } else {
        if (!e.currentPassword.value) { errs.currentPassword = T('profile.current_missing'); }
        if (e.newPassword.value.length < 8) { errs.newPassword = T('profile.too_short'); }
        if (!errs.newPassword && e.newPassword.value !== e.confirmPassword.value) { errs.confirmPassword = T('profile.mismatch'); }
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
        setBusy(btn, true, T('profile.saving'));
        api('PUT', form.getAttribute('data-url'), body).then(function (r) {
          setBusy(btn, false);
          if (r.ok && r.data.success) {
            message(r.data.message || T('profile.saved'));
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
          // The field the refusal names (the answer's fields), else the one its words point to.
          var named = (r.data.fields || []).filter(function (n) { return names.indexOf(n) >= 0; });
          var field = named.length ? named[0] : accountFieldOf(kind, r.status, r.message);
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
        if (!a || !b) { msg = T('profile.dates_missing'); }
        else if (b <= a) { msg = T('ui.exit_after_entry'); }
        showError(datesErr, [e.entry_date, e.exit_date], '');
        showError(datesErr, [!b || (a && b <= a) ? e.exit_date : e.entry_date], msg);
        return !msg;
      }
      form.quote = makeQuoter(function (q) {
        priceBox.setAttribute('data-state', q.state);
        if (q.state === 'ok') {
          total.textContent = euros(q.total);
          priceBox.setAttribute('data-total', Number(q.total).toFixed(2));
          note.textContent = (q.breakdown ? daysText(q.breakdown.days) + ' · ' : '') + T('profile.now', { Total: was.textContent });
        } else {
          priceBox.removeAttribute('data-total');
          if (q.state === 'loading') { note.textContent = T('profile.calculating'); }
          else if (q.state === 'error') { total.textContent = '—'; note.textContent = q.message; }
          else { total.textContent = '—'; note.textContent = T('profile.check_dates'); }
        }
      });
      form.requote = function (immediate) {
        if (!datesOK()) { form.quote(null); return; }
        var b = body();
        b.vehicle_type = card.getAttribute('data-vehicle-type');
        b.id_reservation = Number(card.getAttribute('data-reservation')); // priced as this edit (docs/pricing.md#repricing-an-edit)
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
        setBusy(save, true, T('profile.saving'));
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
          cardMessage(card, T('profile.edited', { Total: euros(r.data.total_price) }));
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
      pill.textContent = window.ParkingText.status('CANCELADA');
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
      setBusy(confirmBtn, true, T('profile.cancelling'));
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
        say(T('profile.cancelled', { ID: id }));
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

  var root = document.querySelector('[data-profile]');
  if (root) { initProfile(root); }
})();
