/* The croupier console: the table's one keypad, keyboard shortcuts and a guard against a double
   tap. Everything else is htmx attributes in the templates. No framework, no build step.

   The keypad (A 2 … K) is drawn once with the page. It is enabled while the action panel holds a
   control that takes a rank (form[data-keypad]); a tap sends the rank with the "armed" one of
   them (the server arms one; touching another control arms that one instead). For the chemin de
   fer deal, taps fill ponte, banker, ponte, banker and the fourth sends the deal. */
(function () {
  "use strict";
  var lastSwap = 0;
  var RANK_KEYS = {a: "A", "1": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6",
    "7": "7", "8": "8", "9": "9", "0": "10", j: "J", q: "Q", k: "K"};

  function $(selector) { return document.querySelector(selector); }

  function rankForms() {
    return Array.prototype.slice.call(document.querySelectorAll("#table-actions form[data-keypad]"));
  }

  function armedForm() {
    var forms = rankForms();
    for (var i = 0; i < forms.length; i++) if (forms[i].classList.contains("armed")) return forms[i];
    return forms.length ? forms[0] : null;
  }

  function arm(form) {
    rankForms().forEach(function (f) { f.classList.toggle("armed", f === form); });
  }

  // Who holds the bank, from the screen's meta: his seat is marked in the seat list and his row
  // of the claims table is hidden (he cannot call banco on his own bank). Both are drawn once
  // per seating, not each time the bank changes hands.
  function bankerSync() {
    var meta = document.getElementById("screen-meta");
    var seat = meta ? meta.getAttribute("data-banker") : "";
    document.querySelectorAll("#table-seats li[data-seat]").forEach(function (li) {
      li.classList.toggle("banker", !!seat && li.getAttribute("data-seat") === seat);
    });
    document.querySelectorAll("#table-claims tr[data-seat]").forEach(function (row) {
      row.hidden = !!seat && row.getAttribute("data-seat") === seat;
    });
  }

  // The keypad's one state that changes: enabled while a control takes a rank. The claims
  // table (chemin de fer, drawn once) starts blank at every banco call.
  function keypadSync() {
    bankerSync();
    var keypad = document.getElementById("keypad");
    if (keypad) keypad.disabled = !armedForm();
    var claims = document.getElementById("table-claims");
    if (claims && !document.getElementById("claims-form")) {
      claims.querySelectorAll("input, select").forEach(function (field) { field.value = ""; });
    }
  }

  // A void asked (the form is drawn once with the page) starts blank the next time.
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (event.detail.successful && form.closest && form.closest("details.void")) {
      form.reset();
      form.closest("details").open = false;
    }
  });

  // The deal (chemin de fer): ranks fill ponte, banker, ponte, banker; the fourth sends it.
  function fill(form, rank) {
    var slots = Array.prototype.slice.call(form.querySelectorAll("input[data-order]"));
    slots.sort(function (a, b) { return a.dataset.order - b.dataset.order; });
    for (var i = 0; i < slots.length; i++) {
      if (!slots[i].value) {
        slots[i].value = rank;
        if (i === slots.length - 1) form.requestSubmit();
        return;
      }
    }
  }

  function rankTapped(rank) {
    var form = armedForm();
    if (!form) return;
    if (form.querySelector("input[data-order]")) {
      fill(form, rank);
      return;
    }
    form.elements.rank.value = rank;
    form.requestSubmit();
  }

  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("#keypad button[data-rank]");
    if (key) rankTapped(key.dataset.rank);
  });

  // Touching a control that takes a rank arms it (pontoon: « Acheter » after its amount).
  ["focusin", "click", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest && event.target.closest("#table-actions form[data-keypad]");
      if (form && !form.classList.contains("armed")) arm(form);
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) {
      if (event.key === "Escape") target.blur();
      return;
    }
    var desk = document.getElementById("desk");
    if (!desk) return;
    var key = event.key.toLowerCase();
    if (key === "escape") {
      desk.querySelectorAll("input[data-order]").forEach(function (i) { i.value = ""; });
      return;
    }
    var shortcut = desk.querySelector('button[data-key="' + key + '"]');
    var rank = RANK_KEYS[key];
    if (rank && armedForm()) shortcut = $('#keypad button[data-rank="' + rank + '"]');
    if (shortcut && !shortcut.disabled && !shortcut.closest("fieldset:disabled")) {
      event.preventDefault();
      shortcut.click();
    }
  });

  // Regions kept by digest. A coup repeats the phases, action panels and facts of the last
  // one: the server sends a region the screen has already drawn as a stub
  // (<div id="table-…" data-cached="digest">) and the copy kept here is swapped in instead.
  // The screen tells the server which digests it keeps on every request ("cached").
  var kept = new Map();
  var KEEP = 64;
  function keep(digest, html) {
    if (!digest) return;
    kept.delete(digest);
    kept.set(digest, html);
    while (kept.size > KEEP) kept.delete(kept.keys().next().value);
  }
  function shownDigests() {
    var screen = document.getElementById("screen");
    var meta = document.querySelector('#screen-meta input[name="screen"]');
    var found = {};
    if (!screen || !meta) return found;
    var names = screen.dataset.regions.split(" ");
    var digests = meta.value.split(" ").filter(function (d) { return d.indexOf(":") < 0; });
    names.forEach(function (name, i) { found["table-" + name] = digests[i]; });
    return found;
  }
  function keepShown() {
    var digests = shownDigests();
    Object.keys(digests).forEach(function (id) {
      var element = document.getElementById(id);
      if (element && !element.dataset.cached) keep(digests[id], element.outerHTML);
    });
  }
  document.addEventListener("DOMContentLoaded", keepShown);
  document.addEventListener("htmx:configRequest", function (event) {
    if (kept.size && event.detail.elt.closest && event.detail.elt.closest("#screen")) {
      event.detail.parameters.cached = Array.from(kept.keys()).join(" ");
    }
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var region = event.detail.fragment.firstElementChild;
    if (!region || !/^table-/.test(region.id)) return;
    var digest = region.dataset.cached;
    if (digest === undefined) {
      keep(shownDigests()[region.id], region.outerHTML);  // the meta came first in the answer
      return;
    }
    var html = kept.get(digest);
    if (html === undefined) { window.location.reload(); return; }
    keep(digest, html);
    var template = document.createElement("template");
    template.innerHTML = html;
    event.detail.fragment.replaceChildren(template.content);
  });

  // Polls (hx-trigger="every …" with data-poll) say they are polls (X-Poll), so that they do
  // not count as the person's activity (an idle session ends: docs/security.md); a poll waits
  // while the page is hidden (data-poll="visible") or while a control inside it has the focus
  // (data-poll="unfocused"), and a <details data-when="open"> asks only while open. Said here
  // rather than as htmx trigger filters, which htmx runs as code: the Content-Security-Policy
  // allows no eval.
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt.dataset && event.detail.elt.dataset.poll !== undefined) {
      event.detail.headers["X-Poll"] = "1";
    }
  });
  // A poll's answer that left before the person's last write (a relief, a decision) shows the
  // page as it was before that write: it is not drawn (the next poll brings the page as it is).
  var pollStarted = new WeakMap();
  var lastWrite = 0;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt.dataset) return;
    var poll = elt.dataset.poll;
    var focused = document.activeElement && document.activeElement !== document.body &&
      elt.contains(document.activeElement);
    if ((poll === "visible" && document.hidden) || (poll === "unfocused" && focused) ||
        (elt.dataset.when === "open" && !elt.open)) {
      event.preventDefault();
      return;
    }
    if (poll !== undefined) pollStarted.set(event.detail.xhr, Date.now());
    else lastWrite = Date.now();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var started = pollStarted.get(event.detail.xhr);
    if (started !== undefined && started <= lastWrite) event.detail.shouldSwap = false;
  });

  // The second tap of a double tap lands where the first did, on the controls just drawn
  // there: it would be a new action. A tap at the same spot right after a redraw is dropped
  // (the server books a repeated request once anyway, by its idempotency key; keys and
  // programmatic clicks, with event.detail 0, are not taps).
  var lastTap = null;
  function swapped() { lastSwap = Date.now(); keypadSync(); }
  document.addEventListener("htmx:afterSwap", swapped);
  document.addEventListener("htmx:oobAfterSwap", swapped);
  document.addEventListener("htmx:afterSettle", keypadSync);
  document.addEventListener("DOMContentLoaded", keypadSync);
  document.addEventListener("click", function (event) {
    if (!event.detail || !event.target.closest || !event.target.closest("#desk")) return;
    var near = lastTap && Math.abs(event.clientX - lastTap.x) < 24 &&
      Math.abs(event.clientY - lastTap.y) < 24;
    if (near && Date.now() - lastSwap < 400) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    lastTap = {x: event.clientX, y: event.clientY};
  }, true);
})();
