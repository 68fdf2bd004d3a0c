/* Manage my booking (docs/manage-booking.md): the live quote of the edit form and the print
   button. The page works without it: the forms post and the server answers. The
   quote goes through POST /api/pricing/dynamic with the booking's reference and its
   manage token, so it is exactly what saving charges (docs/pricing.md#one-price-path). */
(function () {
  'use strict';
  var root = document.querySelector('[data-manage]');
  if (!root) { return; }
  var reference = root.getAttribute('data-reference');
  var token = root.getAttribute('data-token');
  var PT = window.ParkingText; // the page's language (app.js)

  var print = root.querySelector('[data-print]');
  if (print) {
    print.hidden = false;
    print.addEventListener('click', function () { window.print(); });
  }
  var flash = root.querySelector('[data-manage-flash], [data-manage-error]');
  if (flash) { flash.focus(); }

  var form = root.querySelector('[data-manage-edit]');
  if (!form) { return; }
  var out = form.querySelector('[data-manage-quote]');
  var value = form.querySelector('[data-manage-quote-value]');
  var timer = null;
  var seq = 0;

  function body() {
    var extras = Array.prototype.map.call(form.querySelectorAll('input[name="additional_services"]:checked'), function (c) { return Number(c.value); });
    return {
      reference: reference,
      entry_date: form.elements.entry_date.value,
      exit_date: form.elements.exit_date.value,
      vehicle_type: root.getAttribute('data-vehicle-type'),
      id_main_service: Number(form.elements.id_main_service.value),
      additional_services: extras
    };
  }

  function quote() {
    var b = body();
    if (!b.entry_date || !b.exit_date) { out.hidden = true; return; }
    var mine = ++seq;
    fetch('/api/pricing/dynamic', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json', 'X-Manage-Token': token },
      body: JSON.stringify(b)
    }).then(function (r) { return r.json(); }).then(function (d) {
      if (mine !== seq) { return; }
      out.hidden = false;
      if (d.success) {
        value.textContent = PT.money(d.total_price);
        out.classList.remove('field-error');
      } else {
        value.textContent = d.message || PT.T('ui.no_price');
        out.classList.add('field-error');
      }
    }).catch(function () {
      if (mine === seq) { out.hidden = true; }
    });
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(quote, 250);
  }
  form.addEventListener('input', later);
  form.addEventListener('change', later);
}());
