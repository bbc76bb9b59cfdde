// closerelay plan page: copy buttons, the time left, live updates over the
// plan's event stream (GET /api/plan/{id}/events), and "Sign with a wallet",
// whose code (wallet.ts, Stellar Wallets Kit) is loaded only when asked for.
// The page reads fully without this script; it only keeps it current.
// Built by build.mjs into web/assets/plan.js (a classic script).
import type { WalletPage } from "./walletpage";

(function () {
  "use strict";

  var root = document.getElementById("plan") as HTMLElement | null;
  if (!root) { return; }

  var $ = function (id: string): any { return document.getElementById(id); };
  var threshold = parseInt(root.dataset.threshold, 10) || 0;
  var expiry = root.dataset.expiry ? Date.parse(root.dataset.expiry) : NaN;
  var readyXDR = $("xdr-ready") ? $("xdr-ready").value : "";
  var lastXDR = $("xdr-current") ? $("xdr-current").value : "";
  var stream = null;
  var gone = false;          // the plan has expired: nothing more to follow
  var pollTimer = null;      // the next poll of /status, while no stream is live
  var notice = $("live-notice");

  // Words shared with the server (view.go: progressText, timeLeft).
  function plural(n, unit) { return n === 1 ? "1 " + unit : n + " " + unit + "s"; }
  function progressText(weight, thr, signatures, ready, blocked, submitted) {
    if (thr <= 0) { return plural(signatures, "signature") + " collected"; }
    var s = "Weight " + weight + " of " + thr;
    var met = ready || weight >= thr;
    if (met && submitted) { return s + ": submitted"; }
    if (met && blocked) { return s + ": threshold met, but the ledger would refuse this close"; }
    if (met) { return s + ": ready to submit"; }
    return s + ": " + (thr - weight) + " more needed";
  }
  function timeLeft(ms) {
    if (!(ms > 0)) { return "expired"; }
    var t = Math.floor(ms / 60000);
    var d = Math.floor(t / 1440), h = Math.floor(t % 1440 / 60), m = t % 60;
    if (d > 0) { return "in " + d + " d " + h + " h"; }
    if (h > 0) { return "in " + h + " h " + m + " min"; }
    if (m > 0) { return "in " + m + " min"; }
    return "in less than a minute";
  }

  // The ways to sign (the SEP-7 link, its QR code, the paste form) apply
  // until the plan is ready, submitted, blocked or expired; the words say
  // why not (decision.go: closedReady, closedSubmitted, closedExpired,
  // closedBlocked). A page rendered blocked has none to show again.
  var CLOSED_READY = "Signing is over: the signatures collected reach the threshold. Nothing more is needed from co-signers.";
  var CLOSED_SUBMITTED = "Signing is over: the close has been submitted to the ledger.";
  var CLOSED_EXPIRED = "Signing is over: the plan has expired. The close must be rebuilt and published again.";
  var CLOSED_BLOCKED = "Signing is closed: the ledger would refuse this close as it stands. Ask whoever published it for a new close that fixes what the ledger check found.";
  var isReady = root.dataset.ready === "true";
  var subState = $("submission") ? ($("submission").getAttribute("data-state") || "") : "";
  function updateSignWays() {
    var why = "";
    var blocked = isBlocked();
    if (gone) { why = CLOSED_EXPIRED; } else if (subState === "submitted") { why = CLOSED_SUBMITTED; } else if (blocked) { why = CLOSED_BLOCKED; } else if (isReady) { why = CLOSED_READY; }
    var ways = $("sign-ways"), closed = $("sign-closed"), wallet = $("wallet");
    if (ways) { ways.hidden = why !== ""; }
    if (wallet) { wallet.hidden = why !== ""; }
    if (closed) {
      closed.hidden = why === "";
      closed.className = "status " + (blocked && why === CLOSED_BLOCKED ? "is-blocked" : "is-ready");
      if (closed.textContent !== why) { closed.textContent = why; }
    }
    renderStatus();
  }
  // The status line from the latest weight (view.go: progressText).
  var lastWeight = parseInt(root.dataset.weight, 10) || 0, lastSignatures = 0;
  function renderStatus() {
    var status = $("status");
    if (!status) { return; }
    var text = progressText(lastWeight, threshold, lastSignatures, isReady, isBlocked(), subState === "submitted");
    if (threshold <= 0 && lastSignatures === 0) { return; } // no state yet: the server's words stand
    if (status.textContent !== text) { status.textContent = text; }
    status.classList.toggle("is-ready", isReady && !isBlocked());
    var bar = $("progress");
    if (bar && threshold > 0) { bar.setAttribute("aria-valuetext", text); }
  }

  // The outcome the page leads with (decision.go: leadOf).
  function renderLead(sub, fwd) {
    var box = $("lead");
    if (!box) { return; }
    var st = sub && typeof sub === "object" ? str(sub.state) : "", title = "", text = "", hash = "";
    if (st === "submitted") {
      title = "The close landed";
      text = "The ledger closed the account in ledger " + str(sub.ledger) + ".";
      hash = str(sub.hash);
      var fs = fwd && typeof fwd === "object" ? str(fwd.state) : "";
      if (fs === "pending") { text += " The relay is forwarding the funds from the mediator to the destination."; }
      if (fs === "forwarded") { text += " Forwarded: " + str(fwd.amount) + " XLM reached the destination in ledger " + str(fwd.ledger) + "."; }
      if (fs === "failed") { text += " But the mediator's forward failed (" + str(fwd.code) + "): the funds wait in the mediator, and only the relay's operator can move them."; }
    } else if (st === "blocked") {
      title = "Not submitted: this close cannot land";
      text = "The ledger check just before submitting found that the ledger would refuse it (" + str(sub.code) + "), so the relay did not post it. Ask whoever published it for a new close.";
    } else if (st === "failed") {
      title = "The ledger refused the close";
      text = "The ledger refused it (" + str(sub.code) + "). The relay tries again when the envelope changes.";
    } else {
      return;
    }
    box.hidden = false;
    box.className = "lead lead-" + st;
    box.setAttribute("data-state", st);
    while (box.firstChild) { box.removeChild(box.firstChild); }
    var h = span("", title, "h2");
    h.id = "lead-title";
    box.appendChild(h);
    var p = document.createElement("p");
    var t = span("", text);
    t.id = "lead-text";
    p.appendChild(t);
    if (hash !== "") {
      p.appendChild(document.createTextNode(" Transaction "));
      var c = span("key hash", hash, "code");
      c.id = "lead-hash";
      p.appendChild(c);
    }
    box.appendChild(p);
    // Once landed, the ledger check's forecast gives way to the outcome.
    if (st === "submitted" && pfBox) { pfBox.hidden = true; }
  }

  // The submission's and the forward's outcome (decision.go: outcomeOf).
  function outcomeLine(id, state, words, hash) {
    var p = $(id);
    if (!p) { return; }
    p.setAttribute("data-state", state || "");
    while (p.firstChild) { p.removeChild(p.firstChild); }
    p.hidden = !words;
    if (!words) { return; }
    var w = document.createElement("span");
    w.className = "words";
    w.textContent = words;
    p.appendChild(w);
    if (typeof hash === "string" && hash !== "") {
      p.appendChild(document.createTextNode(" Transaction "));
      var c = document.createElement("code");
      c.className = "key hash";
      c.textContent = hash;
      p.appendChild(c);
    }
  }
  var lastSub = null, lastFwd = null; // the latest outcomes told, for the lead
  function str(v) { return typeof v === "string" ? v : (typeof v === "number" ? String(v) : ""); }
  function renderSubmission(sub) {
    if (!sub || typeof sub !== "object") { return; }
    var st = str(sub.state), words = "";
    if (st === "pending") { words = "Submitting the close to the ledger."; }
    if (st === "submitted") { words = "Submitted: the ledger closed the account in ledger " + str(sub.ledger) + "."; }
    if (st === "failed") { words = "The ledger refused the close (" + str(sub.code) + "). The relay tries again when the envelope changes."; }
    if (st === "blocked") { words = "Not submitted: the ledger check just before submitting found that the close cannot land (" + str(sub.code) + ")."; }
    if (words === "") { return; }
    subState = st;
    lastSub = sub;
    outcomeLine("submission", st, words, st === "submitted" ? str(sub.hash) : "");
    renderLead(lastSub, lastFwd);
    updateSignWays();
  }
  function renderForward(fwd) {
    if (!fwd || typeof fwd !== "object") { return; }
    var st = str(fwd.state), words = "";
    if (st === "pending") { words = "Forwarding the funds from the mediator to the destination."; }
    if (st === "forwarded") { words = "Forwarded: " + str(fwd.amount) + " XLM reached the destination in ledger " + str(fwd.ledger) + "."; }
    if (st === "failed") { words = "The mediator's forward failed (" + str(fwd.code) + ")."; }
    if (words === "") { return; }
    lastFwd = fwd;
    outcomeLine("forward", st, words, st === "forwarded" ? str(fwd.hash) : "");
    renderLead(lastSub, lastFwd);
  }
  function eventData(ev) {
    try { return JSON.parse(ev.data); } catch (e) { return null; }
  }

  // Copy buttons: shown only when this script runs.
  var copyStatus = $("copy-status");
  function announce(text) {
    if (!copyStatus) { return; }
    copyStatus.textContent = "";
    window.setTimeout(function () { copyStatus.textContent = text; }, 50);
  }
  function fallbackCopy(area) {
    area.focus();
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    return ok;
  }
  Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (btn) {
    btn.hidden = false;
    btn.addEventListener("click", function () {
      var area = $(btn.getAttribute("data-copy"));
      if (!area) { return; }
      var label = btn.textContent;
      var done = function (ok) {
        announce(ok ? "Copied to the clipboard." : "Copy failed: select the text and copy it by hand.");
        btn.textContent = ok ? "Copied" : "Copy failed";
        window.setTimeout(function () { btn.textContent = label; }, 2000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(area.value).then(function () { done(true); }, function () { done(fallbackCopy(area)); });
      } else {
        done(fallbackCopy(area));
      }
    });
  });

  // Time left.
  var timeEl = $("timeleft");
  var timer = null;
  function tick() {
    if (!timeEl || isNaN(expiry)) { return; }
    var text = timeLeft(expiry - Date.now());
    if (timeEl.textContent !== text) { timeEl.textContent = text; }
    if (text === "expired") { expired(); }
  }
  if (timeEl && !isNaN(expiry)) {
    tick();
    timer = window.setInterval(tick, 1000);
  }

  function expired() {
    gone = true;
    if (timer !== null) { window.clearInterval(timer); timer = null; }
    if (pollTimer !== null) { window.clearTimeout(pollTimer); pollTimer = null; }
    if (stream) { stream.close(); stream = null; }
    say("");
    if (timeEl) { timeEl.textContent = "expired"; }
    var banner = $("expired");
    if (banner) { banner.hidden = false; }
    updateSignWays();
  }

  // The ledger check (CONTRACT section 14): shown first, rendered by the
  // server; kept current from the events' landable (a change fetches
  // /status for the blockers) and from /status when polling. Words shared
  // with the server (preflight.go: blockerWords, blockerFallback, when).
  var BLOCKER_WORDS = {
    "op_has_sub_entries": "The account still holds entries that must be removed before it can be closed",
    "op_is_sponsor": "The account pays the reserve of other accounts' entries",
    "op_immutable_set": "The account is marked immutable and can never be closed",
    "op_no_account": "The account the lumens go to does not exist",
    "op_no_destination": "The account the funds go to does not exist",
    "op_already_exists": "The account this close creates exists already",
    "tx_bad_seq": "The account has been used since this close was built",
    "tx_insufficient_balance": "The account cannot pay the fee",
    "tx_insufficient_fee": "The fee is below the network's minimum",
    "tx_no_source_account": "The account does not exist",
    "memo_required": "The destination requires a memo, and this close has none: the funds would not be credited"
  };
  var BLOCKER_FALLBACK = "The ledger would refuse this operation";
  var FORWARD_WHERE = "The mediator's forward";
  var pfBox = $("preflight");
  var pfState = pfBox ? (pfBox.getAttribute("data-state") || "") : "";
  if (!pfBox && $("lead") && $("lead").getAttribute("data-state") === "submitted") { pfState = ""; }
  // Blocked: the ledger check or the submission found that the ledger
  // would refuse the close.
  function isBlocked() { return pfState === "blocked" || subState === "blocked"; }
  function landableOf(st) { return st === "landable" ? true : (st === "blocked" ? false : null); }
  function when(iso) {
    var t = Date.parse(iso);
    return isNaN(t) ? "" : new Date(t).toISOString().slice(0, 19).replace("T", " ") + " UTC";
  }
  function blockerWhere(op) {
    if (op === -2) { return FORWARD_WHERE; }
    if (!(op >= 0)) { return "The transaction"; }
    var s = "Operation " + (op + 1);
    var li = document.querySelectorAll("#ops li")[op];
    if (li && li.getAttribute("data-type")) { s += " (" + li.getAttribute("data-type") + ")"; }
    return s;
  }
  function span(cls, text, tag) {
    var e = document.createElement(tag || "span");
    e.className = cls;
    e.textContent = text;
    return e;
  }
  function renderPreflight(pf) {
    if (!pfBox) { return; }
    var st = pf && typeof pf === "object" && typeof pf.state === "string" ? pf.state : "";
    pfState = st;
    pfBox.hidden = st === "" || subState === "submitted";
    pfBox.className = "preflight pf-" + st;
    pfBox.setAttribute("data-state", st);
    Array.prototype.forEach.call(pfBox.querySelectorAll(".pf-say"), function (d) {
      d.hidden = d.getAttribute("data-when") !== st;
    });
    var list = $("pf-blockers");
    if (list) {
      while (list.firstChild) { list.removeChild(list.firstChild); }
      (st !== "" && Array.isArray(pf.blockers) ? pf.blockers : []).forEach(function (b) {
        if (!b || typeof b !== "object") { return; }
        var code = typeof b.code === "string" ? b.code : "";
        var words = Object.prototype.hasOwnProperty.call(BLOCKER_WORDS, code) ? BLOCKER_WORDS[code] : BLOCKER_FALLBACK;
        var li = document.createElement("li");
        li.setAttribute("data-code", code);
        li.appendChild(span("pf-plain", words + ".", "strong"));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(span("pf-where", blockerWhere(typeof b.op === "number" ? b.op : -1) + ":"));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(span("pf-reason", typeof b.reason === "string" ? b.reason : ""));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(span("pf-code", code, "code"));
        list.appendChild(li);
      });
    }
    // The fee advice (preflight.fee): shown when the bid is below the
    // network's fee, as the server renders it.
    var feeBox = $("pf-fee"), fee = st !== "" && pf.fee && typeof pf.fee === "object" ? pf.fee : null;
    var low = !!fee && fee.low === true && typeof fee.bid === "number" && typeof fee.network === "number";
    if (feeBox) {
      feeBox.hidden = !low;
      if (low) {
        $("pf-fee-bid").textContent = String(fee.bid);
        $("pf-fee-network").textContent = String(fee.network);
      }
    }
    var checked = $("pf-checked");
    if (checked && st !== "" && typeof pf.checked === "string") {
      checked.setAttribute("datetime", pf.checked);
      checked.textContent = when(pf.checked);
    }
    updateSignWays();
    // A blocked close says so above the decision, as the server renders
    // it; any other verdict follows the decision.
    var decision = $("decision"), h1 = root.querySelector("h1");
    if (decision && h1 && decision.parentNode === root && h1.parentNode === root) {
      root.insertBefore(pfBox, st === "blocked" ? h1.nextSibling : decision.nextSibling);
    }
  }
  var pfFetching = false, pfAgain = false;
  function refreshPreflight() {
    if (!statusURL || !window.fetch || gone) { return; }
    if (pfFetching) { pfAgain = true; return; }
    pfFetching = true;
    window.fetch(statusURL, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || !body.ok) { return; }
        if (Object.prototype.hasOwnProperty.call(body, "preflight")) { renderPreflight(body.preflight); }
        renderSubmission(body.submission);
        renderForward(body.forward);
      })
      .catch(function () { /* the next event or poll tries again */ })
      .then(function () {
        pfFetching = false;
        if (pfAgain) { pfAgain = false; refreshPreflight(); }
      });
  }

  // Progress, signers and envelopes from one state event.
  function apply(state) {
    if (!state || typeof state !== "object") { return; }
    if (Object.prototype.hasOwnProperty.call(state, "landable") && state.landable !== landableOf(pfState)) {
      refreshPreflight();
    }
    var signed = {};
    var keys = Array.isArray(state.signers) ? state.signers : [];
    keys.forEach(function (k) { signed[k] = true; });

    var sum = 0, count = 0;
    Array.prototype.forEach.call(document.querySelectorAll("#signers li[data-key]"), function (li) {
      var is = signed[li.getAttribute("data-key")] === true;
      li.className = is ? "signed" : "pending";
      var st = li.querySelector(".state");
      if (st) { st.textContent = is ? "\u2713 signed" : "not signed yet"; }
      if (is) { count++; sum += Math.min(parseInt(li.getAttribute("data-weight"), 10) || 0, 255); }
    });
    if (!document.querySelector("#signers li[data-key]")) { count = keys.length; }
    var countEl = $("signed-count");
    if (countEl) { countEl.textContent = String(count); }

    if (typeof state.threshold === "number") { threshold = state.threshold; }
    var weight = typeof state.weight === "number" ? state.weight : sum;
    var ready = typeof state.ready === "boolean" ? state.ready : (threshold > 0 && weight >= threshold);
    isReady = ready;
    lastWeight = weight;
    lastSignatures = keys.length;
    var text = progressText(weight, threshold, keys.length, ready, isBlocked(), subState === "submitted");
    updateSignWays();
    var bar = $("progress");
    if (bar) {
      bar.hidden = threshold <= 0;
      if (threshold > 0) {
        var now = Math.max(0, Math.min(weight, threshold));
        bar.setAttribute("aria-valuemax", String(threshold));
        bar.setAttribute("aria-valuenow", String(now));
        bar.setAttribute("aria-valuetext", text);
        bar.classList.toggle("is-ready", ready);
        var fill = $("progress-fill");
        if (fill) { fill.setAttribute("width", (100 * now / threshold).toFixed(2)); }
      }
    }

    if (typeof state.xdr === "string" && state.xdr !== "") {
      var cur = $("xdr-current");
      if (cur) { cur.value = state.xdr; }
      if (ready && (state.xdr !== lastXDR || readyXDR === "")) { fetchReady(); }
      lastXDR = state.xdr;
    }
    if (!ready) {
      var box = $("ready");
      if (box) { box.hidden = true; }
    }
  }

  // The submit-ready envelope is not in the stream: ask /ready for it.
  var fetching = false;
  function fetchReady() {
    var url = root.dataset.readyUrl;
    if (!url || fetching || !window.fetch) { return; }
    fetching = true;
    window.fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (body && body.ok && typeof body.xdr === "string") {
          readyXDR = body.xdr;
          var area = $("xdr-ready"), box = $("ready");
          if (area) { area.value = body.xdr; }
          if (box) { box.hidden = false; }
        }
      })
      .catch(function () { /* the next state event tries again */ })
      .then(function () { fetching = false; });
  }

  // Live updates: the plan's event stream, and while no stream is to be
  // had (refused at the cap, throttled, the relay draining, or a stream
  // that ended before the plan did) GET /status with backoff, saying so,
  // until a stream is accepted again (CONTRACT section 9, round 3).
  var url = root.dataset.events;
  var statusURL = root.dataset.statusUrl;
  var planURL = "/api/plan/" + root.dataset.id;
  var pollDelay = 0;         // seconds; 0 while the stream is live
  var lastVersion = -1;
  var POLL_FIRST = 2, POLL_MAX = 30;

  function say(text) {
    if (!notice) { return; }
    notice.textContent = text || "";
    notice.hidden = !text;
  }
  function stopPolling() {
    if (pollTimer !== null) { window.clearTimeout(pollTimer); pollTimer = null; }
    pollDelay = 0;
  }
  function schedulePoll() {
    if (gone || pollTimer !== null || !statusURL || !window.fetch) { return; }
    pollDelay = pollDelay ? Math.min(pollDelay * 2, POLL_MAX) : POLL_FIRST;
    say("Live updates paused, checking every " + pollDelay + " s.");
    pollTimer = window.setTimeout(poll, pollDelay * 1000);
  }
  function poll() {
    pollTimer = null;
    window.fetch(statusURL, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) {
        if (r.status === 404) { expired(); return null; }
        return r.ok ? r.json() : null;
      })
      .then(function (body) {
        if (!body || !body.ok) { return; }
        var changed = typeof body.version === "number" && body.version !== lastVersion;
        if (typeof body.version === "number") { lastVersion = body.version; }
        if (Object.prototype.hasOwnProperty.call(body, "preflight")) { renderPreflight(body.preflight); }
        renderSubmission(body.submission);
        renderForward(body.forward);
        apply(body);
        if (body.ready && readyXDR === "") { fetchReady(); }
        if (changed) { return fetchEnvelope(); }
      })
      .catch(function () { /* the next poll tries again */ })
      .then(function () {
        if (gone) { return; }
        openStream(); // back to the stream if one is accepted now
      });
  }
  // The current envelope is not in /status: read it from the plan route.
  function fetchEnvelope() {
    return window.fetch(planURL, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (body && typeof body.xdr === "string" && body.xdr !== "") {
          var cur = $("xdr-current");
          if (cur) { cur.value = body.xdr; }
          lastXDR = body.xdr;
        }
      });
  }
  function openStream() {
    if (gone || !url || !window.EventSource) { return; }
    if (stream) { stream.close(); }
    var es = new EventSource(url);
    stream = es;
    es.onopen = function () {
      if (stream !== es) { return; }
      stopPolling();
      say("");
    };
    es.onmessage = function (ev) {
      var state;
      try { state = JSON.parse(ev.data); } catch (e) { return; }
      if (ev.lastEventId) { lastVersion = parseInt(ev.lastEventId, 10); }
      apply(state);
    };
    es.addEventListener("expired", function () { gone = true; expired(); });
    // The preflight before the first try may have changed the verdict.
    es.addEventListener("submitted", function (ev) {
      var d = eventData(ev);
      if (d) { renderSubmission({ state: "submitted", hash: d.hash, ledger: d.ledger }); }
      refreshPreflight();
    });
    es.addEventListener("submit_failed", function (ev) {
      var d = eventData(ev);
      // A blocked close (CONTRACT section 14) fails with a blocker's code:
      // the refreshed check tells which.
      if (d) { renderSubmission({ state: "failed", code: d.code }); }
      refreshPreflight();
    });
    es.addEventListener("forwarded", function (ev) {
      var d = eventData(ev);
      if (d) { renderForward({ state: "forwarded", hash: d.hash, ledger: d.ledger, amount: d.amount }); }
    });
    es.addEventListener("forward_failed", function (ev) {
      var d = eventData(ev);
      if (d) { renderForward({ state: "failed", code: d.code }); }
    });
    es.onerror = function () {
      if (stream !== es) { return; }
      if (es.readyState !== EventSource.CLOSED) { return; } // the browser reconnects by itself
      // Refused (404 when the plan is gone, 429, 503) or failed: poll.
      stream = null;
      if (!isNaN(expiry) && expiry <= Date.now()) { expired(); return; }
      schedulePoll();
    };
  }
  if (url && window.EventSource) {
    openStream();
  } else {
    schedulePoll();
  }

  // The paste form: without this script it posts to /plan/{id}/sign and
  // the relay answers the page again; with it, the envelope goes to the
  // JSON sign route and the answer is said beside the form, the page kept
  // (words shared with the relay's page, httpapi/pagesign.go).
  var form = $("paste");
  if (form && window.fetch && window.JSON) {
    form.addEventListener("submit", function (ev) {
      var area = $("paste-xdr"), out = $("paste-result"), send = $("paste-send");
      if (!area || !out || !form.dataset.api) { return; } // the plain form post
      ev.preventDefault();
      var x = (area.value || "").replace(/\s+/g, "");
      function say(ok, title, text, code) {
        out.className = "notice " + (ok ? "notice-ok" : "notice-error");
        while (out.firstChild) { out.removeChild(out.firstChild); }
        out.appendChild(span("", title, "h3"));
        var p = span("", text, "p");
        if (code) { p.appendChild(document.createTextNode(" ")); p.appendChild(span("pf-code", code, "code")); }
        out.appendChild(p);
        out.hidden = false;
      }
      if (x === "") { say(false, "Envelope refused", "This is not a transaction envelope the relay can read: paste a signed envelope (base64) into the form.", "BAD_XDR"); return; }
      var before = document.querySelectorAll("#signers li.signed").length;
      if (send) { send.disabled = true; }
      window.fetch(form.dataset.api, {
        method: "POST", cache: "no-store", body: JSON.stringify({ xdr: x }),
        headers: { "Content-Type": "application/json", "Accept": "application/json" }
      }).then(function (r) {
        return r.json().then(function (b) { return b; }, function () { return null; });
      }).then(function (b) {
        if (b && b.ok === true) {
          var keys = Array.isArray(b.signers) ? b.signers : [];
          var progress = typeof b.threshold === "number" && b.threshold > 0 ?
            "weight " + b.weight + " of " + b.threshold + (b.ready ? ": enough to submit" : "") :
            "the plan now has " + keys.length + " signature(s)";
          if (keys.length > before) {
            say(true, "Signature added", "The relay admitted the envelope's signatures: " + progress + ".", "");
            area.value = "";
          } else {
            say(true, "Nothing changed", "Every signature in this envelope is already on the plan (" + progress + ").", "");
          }
          apply(b);
          return;
        }
        var code = b && typeof b.code === "string" ? b.code : "";
        var reason = b && typeof b.reason === "string" ? b.reason : "the relay did not answer";
        var lead = code === "BAD_XDR" ? "This is not a transaction envelope the relay can read" :
          code === "REJECTED" ? "The relay refused a signature in this envelope" : "The relay could not take this envelope";
        say(false, "Envelope refused", lead + ": " + reason + ".", code);
      }).catch(function () {
        say(false, "Not sent", "The relay could not be reached: check the connection, then send again.", "");
      }).then(function () { if (send) { send.disabled = false; } });
    });
  }

  // "Sign with a wallet" (docs/API.md, the plan page): the button shows only
  // when this script runs and signing is open (updateSignWays); a blocked
  // plan's page has none. The wallet code is a separate module, imported on
  // the first click; it gets the page's own apply to show the new weight.
  var walletBox = $("wallet"), walletBtn = $("wallet-sign");
  if (walletBox && walletBtn && walletBox.dataset.module) {
    walletBox.hidden = $("sign-ways") ? $("sign-ways").hidden : true;
    var walletPage: WalletPage = {
      id: root.dataset.id || "",
      box: walletBox,
      apply: function (answer: unknown) { apply(answer); },
      isOpen: function () { return !walletBox.hidden; },
      walletConnect: walletBox.dataset.walletconnect || ""
    };
    walletBtn.addEventListener("click", function () {
      var out = $("wallet-say");
      walletBtn.disabled = true;
      if (out) { out.hidden = false; out.className = "notice"; out.textContent = "Loading the wallets\u2026"; }
      import(walletBox.dataset.module).then(function (m: { connect(p: WalletPage): Promise<void> }) {
        return m.connect(walletPage);
      }, function (e: unknown) {
        if (out) { out.className = "notice notice-error"; out.textContent = "The wallet code could not be loaded: check the connection, then try again."; }
      console.error(e);
      }).then(function () { walletBtn.disabled = false; });
    });
  }
})();
