// The replay page's script: decodes the embedded analysis and draws one step in one view.
// Text from the record is only ever set as textContent, never parsed as HTML.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var NP = D.players.length;
  var NC = D.cards.length;
  var PUBLIC = "public";
  var state = { step: 0, view: PUBLIC, card: null, mistake: null };
  var cache = {};
  var CARD = /(^|[^\w])(10|[2-9JQKA])([♠♥♦♣])/g;

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { append(node, text); }
    return node;
  }

  // Text with each card written with a suit symbol coloured (red for hearts and diamonds).
  function append(node, text) {
    var last = 0;
    text = String(text);
    text.replace(CARD, function (m, before, rank, suit, at) {
      var start = at + before.length;
      node.appendChild(document.createTextNode(text.slice(last, start)));
      var red = suit === "♥" || suit === "♦";
      node.appendChild(el("span", "card " + (red ? "red" : "black"), null)).textContent = rank + suit;
      last = start + rank.length + suit.length;
      return m;
    });
    node.appendChild(document.createTextNode(text.slice(last)));
    return node;
  }

  // Inline runs from the data: a string, or [class, text].
  function runs(node, segments) {
    segments.forEach(function (s) {
      if (typeof s === "string") { append(node, s); } else { node.appendChild(el("span", s[0], s[1])); }
    });
    return node;
  }

  function who(p) { return el("span", "t" + D.teams[p], D.players[p]); }

  function names(list, last) {
    var span = el("span");
    list.forEach(function (p, i) {
      if (i) { span.appendChild(document.createTextNode(i === list.length - 1 ? " " + (last || "or") + " " : ", ")); }
      span.appendChild(who(p));
    });
    return span;
  }

  function bits(mask) {
    var out = [];
    for (var p = 0; p < NP; p++) { if ((mask >> p) & 1) { out.push(p); } }
    return out;
  }

  // The holders of every card (player lists; empty once claimed) and the odds, at a step in a view.
  function at(view, step) {
    var key = view + "\u0000" + step;
    if (cache[key]) { return cache[key]; }
    var v = D.view[view];
    var hex = v.holders[step];
    var holders = [];
    for (var c = 0; c < NC; c++) { holders.push(bits(parseInt(hex.substr(2 * c, 2), 16))); }
    var row = v.odds ? v.odds[step] : null;
    var odds = null;
    if (row) {
      odds = {};
      var k = 0;
      for (c = 0; c < NC; c++) {
        if (holders[c].length > 1) {
          odds[c] = {};
          holders[c].forEach(function (p) { odds[c][p] = row[k++]; });
        }
      }
    }
    cache[key] = { holders: holders, odds: odds };
    return cache[key];
  }

  function pct(value) { return value === 0 ? "<1%" : value + "%"; }

  // "event 24" for the step after the 24th event, numbered as the record writes it.
  function eventLabel(step) { return step === 0 ? "the deal" : "event " + D.events[step - 1].n; }

  function viewName(view) { return view === PUBLIC ? "the public" : view; }

  function taken(step) {
    var books = {};
    D.steps[step].books.forEach(function (b) {
      books[b[0]] = { team: b[1], claimant: b[2], outcome: b[3], event: b[4] };
    });
    return books;
  }

  // ------------------------------------------------------------ moving

  function go(step, view, keep) {
    step = Math.max(0, Math.min(D.last, step));
    if (D.views.indexOf(view) < 0) {  // a name typed in another case is that player's ("#5-anna")
      var named = D.views.filter(function (v) { return v.toLowerCase() === String(view).toLowerCase(); });
      view = named.length ? named[0] : PUBLIC;
    }
    if (!keep) { state.mistake = null; }
    state.step = step;
    state.view = view;
    var hash = "#" + step + "-" + encodeURIComponent(view);
    if (location.hash !== hash) { history.replaceState(null, "", hash); }
    draw();
  }

  function fromHash() {
    var m = /^#(\d+)(?:-(.*))?$/.exec(location.hash);
    if (!m) {  // ("#abc", "#-3-public": the address says again where the page is)
      if (state.step !== undefined && location.hash) { go(state.step, state.view, state.mistake !== null); }
      return false;
    }
    var view = PUBLIC;
    try { view = m[2] ? decodeURIComponent(m[2]) : PUBLIC; } catch (e) { view = PUBLIC; }
    go(parseInt(m[1], 10), view, state.mistake !== null);
    return true;
  }

  function chooseMistake(k) {
    var m = D.mistakes[k];
    state.mistake = k;
    state.card = null;
    go(m.at, m.view, true);
    showPanel($("mistake-panel"));
  }

  // The answer to a click, brought into sight where it is out of it: at any width, the panel may
  // be a screen or more away from the mistake or the row clicked.
  function showPanel(panel) {
    if (!panel.scrollIntoView) { return; }
    var box = panel.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 40) { panel.scrollIntoView({ block: "start" }); }
  }

  // ------------------------------------------------------------ drawing

  function draw() {
    var s = at(state.view, state.step);
    $("slider").value = String(state.step);
    $("view").value = state.view;
    $("first").disabled = $("prev").disabled = state.step === 0;
    $("end").disabled = $("next").disabled = state.step === D.last;
    drawStatus();
    drawScore();
    drawGrid(s);
    drawCard(s);
    drawMistake();
    drawPlayers(s);
    drawBooks(s);
    drawThreats();
    drawEvents();
    drawMistakeList();
  }

  function drawStatus() {
    var node = $("status");
    node.textContent = "";
    var n = state.step;
    node.appendChild(el("span", "step", n === 0 ? "After the deal" : "After " + eventLabel(n) + " of " + D.events.length));
    if (n > 0) {
      var e = D.events[n - 1];
      runs(node, e.text);
      node.appendChild(document.createTextNode(" — "));
      node.appendChild(el("span", resultClass(e), e.result));
    }
    node.appendChild(el("span", "muted", " · as " + viewName(state.view) + " sees it"));
  }

  function resultClass(e) {
    if (e.result === "yes" || e.result === "correct") { return "ok"; }
    if (e.result === "no" || e.result === "wrong" || e.result === "forfeited" || e.result === "not settled") {
      return "bad";
    }
    return "muted";
  }

  function drawScore() {
    var node = $("scorebar");
    node.textContent = "";
    var score = D.steps[state.step].score;
    node.appendChild(el("span", "score", score[0] + "–" + score[1]));
    node.appendChild(el("span", "t1", "team 1"));
    node.appendChild(document.createTextNode(" against "));
    node.appendChild(el("span", "t2", "team 2"));
    var turn = D.steps[state.step].turn;
    if (turn >= 0) {
      node.appendChild(document.createTextNode(" · turn: "));
      node.appendChild(who(turn));
    }
  }

  function mark(s, c, p) {
    var h = s.holders[c];
    if (h.indexOf(p) < 0) { return el("span", "x", "·"); }
    if (h.length === 1) { return el("span", "k", "●"); }
    if (s.odds) {
      var value = s.odds[c][p];
      return el("span", "o" + Math.min(5, Math.floor(value / 20) + 1), pct(value));
    }
    return el("span", "p", "○");
  }

  function focusCards() {
    if (state.mistake === null) { return {}; }
    var m = D.mistakes[state.mistake];
    var out = {};
    Object.keys(m.known).forEach(function (code) { out[code] = true; });
    return out;
  }

  // Canonical codes (10H, RJ) of the cards, in the data's order, as the mistakes name them.
  var CODES = D.cards.map(function (pretty) {
    var suits = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
    var last = pretty.slice(-1);
    return suits[last] ? pretty.slice(0, -1) + suits[last] : pretty;
  });

  function drawGrid(s) {
    var table = $("grid");
    table.textContent = "";
    var counts = D.steps[state.step].counts;
    var head = el("thead");
    var tr = el("tr");
    tr.appendChild(el("th", "card-name", "card"));
    for (var p = 0; p < NP; p++) {
      var known = 0;
      s.holders.forEach(function (h) { if (h.length === 1 && h[0] === p) { known++; } });
      var th = el("th", D.players[p] === state.view ? "me" : "");
      th.appendChild(who(p));
      th.appendChild(el("span", "n", counts[p] + " held"));
      th.appendChild(el("span", "n", known + " known"));
      th.dataset.player = D.players[p];
      tr.appendChild(th);
    }
    head.appendChild(tr);
    table.appendChild(head);
    var body = el("tbody");
    var books = taken(state.step);
    var focus = focusCards();
    D.books.forEach(function (book, b) {
      var done = books[b];
      var title = el("tr", done ? "book-head claimed" : "book-head");
      title.dataset.book = book.name;
      var cell = el("td", "book");
      cell.colSpan = NP + 1;
      var label = el("span", "label");  // (kept in sight when the grid scrolls sideways, as the card names are)
      label.appendChild(el("strong", "", book.pretty));
      if (done) {
        label.appendChild(document.createTextNode(": " + done.outcome + " claim by "));
        label.appendChild(who(done.claimant));
        label.appendChild(document.createTextNode(" at " + eventLabel(done.event) + ", "));
        label.appendChild(done.team ? el("span", "t" + done.team, "team " + done.team + " scores") : el("span", "", "nobody scores"));
      }
      cell.appendChild(label);
      title.appendChild(cell);
      body.appendChild(title);
      if (done) { return; }
      book.cards.forEach(function (c) {
        var classes = [];
        if (state.card === c) { classes.push("selected"); }
        if (focus[CODES[c]]) { classes.push("focus"); }
        var row = el("tr", classes.join(" "));
        row.dataset.card = D.cards[c];
        row.dataset.index = String(c);
        row.appendChild(el("th", "card-name", D.cards[c]));
        for (var p = 0; p < NP; p++) {
          var td = el("td", D.players[p] === state.view ? "me" : "");
          td.dataset.player = D.players[p];
          td.appendChild(mark(s, c, p));
          row.appendChild(td);
        }
        row.addEventListener("click", function () {
          state.card = state.card === c ? null : c;
          draw();
          if (state.card !== null) { showPanel($("card-panel")); }
        });
        body.appendChild(row);
      });
    });
    table.appendChild(body);
    var legend = $("legend");
    legend.textContent = "";
    legend.appendChild(el("span", "k", "●"));
    legend.appendChild(document.createTextNode(" known (the only possible holder), "));
    if (s.odds) {
      legend.appendChild(document.createTextNode("a percentage: the exact odds of a possible holder, counting every deal that fits, "));
    } else {
      legend.appendChild(el("span", "p", "○"));
      legend.appendChild(document.createTextNode(" possible, "));
    }
    legend.appendChild(el("span", "x", "·"));
    legend.appendChild(document.createTextNode(" impossible. Click a card to see who may hold it."));
  }

  function drawCard(s) {
    var node = $("card-info");
    node.textContent = "";
    var c = state.card;
    if (c === null || s.holders[c].length === 0) {
      node.appendChild(el("p", "hint", "Click a card in the grid: who may hold it, and who cannot."));
      return;
    }
    var h = s.holders[c];
    var title = el("p");
    title.appendChild(el("strong", "", D.cards[c]));
    title.appendChild(document.createTextNode(" after " + eventLabel(state.step)));
    title.appendChild(document.createTextNode(", as " + viewName(state.view) + " sees it:"));
    node.appendChild(title);
    var line = el("p", "holders");
    if (h.length === 1) {
      line.appendChild(who(h[0]));
      line.appendChild(document.createTextNode(" holds it: nobody else can."));
    } else {
      line.appendChild(document.createTextNode("May hold it: "));
      h.forEach(function (p, i) {
        if (i) { line.appendChild(document.createTextNode(", ")); }
        var item = el("span", "holder");
        item.dataset.player = D.players[p];
        item.appendChild(who(p));
        if (s.odds) { item.appendChild(document.createTextNode(" " + pct(s.odds[c][p]))); }
        line.appendChild(item);
      });
      line.appendChild(document.createTextNode("."));
    }
    node.appendChild(line);
    var out = [];
    for (var p = 0; p < NP; p++) { if (h.indexOf(p) < 0) { out.push(p); } }
    if (out.length) {
      var ruled = el("p", "ruled-out");
      ruled.appendChild(document.createTextNode("Cannot hold it: "));
      out.forEach(function (q, i) {
        if (i) { ruled.appendChild(document.createTextNode(", ")); }
        ruled.appendChild(who(q));
      });
      ruled.appendChild(document.createTextNode("."));
      node.appendChild(ruled);
    } else {
      node.appendChild(el("p", "ruled-out", "Nobody is ruled out yet."));
    }
    var texts = whyOf(state.view, state.step, c);
    if (texts) {
      node.appendChild(whyList(texts));
      return;
    }
    if (h.length === 1) {  // why its holder holds it (the others lack it for that)
      var known = knownWhy(state.view, state.step, c);
      if (known !== null) {
        var one = {};
        one[D.players[h[0]]] = known;
        node.appendChild(whyList(one));
      }
      return;
    }
    if (out.length) {
      node.appendChild(el("p", "hint",
        "Why the others cannot hold it: on this page at the steps of the mistakes; at any step, from the command halfsuit who-has."));
    }
  }

  // Why the holder of a known card holds it (a text), at a step in a view: the last run of the
  // card's that starts at or before the step (runs of [step, text index], -1 for none).
  function knownWhy(view, step, c) {
    var runs = D.view[view].known[String(c)];
    if (!runs) { return null; }
    var at = -1;
    for (var i = 0; i < runs.length && runs[i][0] <= step; i++) { at = runs[i][1]; }
    return at >= 0 ? D.knownWhy[at] : null;
  }

  // The explanations of a card (player -> text) at a step in a view, when the page carries them.
  function whyOf(view, step, c) {
    var why = D.view[view].why[String(step)];
    return why ? why[String(c)] || null : null;
  }

  function whyList(texts) {
    var list = el("ul", "why-list");
    D.players.filter(function (p) { return p in texts; }).forEach(function (p) {
      var li = el("li", "why");
      li.dataset.player = p;
      li.appendChild(who(D.players.indexOf(p)));
      li.appendChild(document.createTextNode(": "));
      append(li, texts[p]);
      list.appendChild(li);
    });
    return list;
  }

  function drawMistake() {
    var panel = $("mistake-panel");
    var node = $("mistake-info");
    node.textContent = "";
    if (state.mistake === null) { panel.hidden = true; return; }
    panel.hidden = false;
    var m = D.mistakes[state.mistake];
    var head = el("p");
    head.appendChild(el("span", "tag", m.kind));
    head.appendChild(document.createTextNode(" at event " + m.number + " by "));
    var p = D.players.indexOf(m.player);
    head.appendChild(p >= 0 ? who(p) : el("span", "", m.player || "nobody"));
    if (m.book) { head.appendChild(document.createTextNode(" (" + m.book + ")")); }
    node.appendChild(head);
    if (m.event <= D.events.length) {
      node.appendChild(runs(el("p", "muted"), D.events[m.event - 1].text));
    }
    var seen = m.view === PUBLIC ? "The public view (no Hand line to judge from)" : "In " + m.view + "'s own view";
    node.appendChild(el("p", "", seen + " after " + eventLabel(m.at) + ":"));
    if (m.note) { node.appendChild(el("p", "muted", "(" + m.note + ")")); }
    node.appendChild(el("p", "why", m.why));
    if (m.odds) { node.appendChild(el("p", "", "Odds: " + m.odds)); }
    var codes = CODES.filter(function (code) { return code in m.known; });  // in deck order
    if (codes.length) {
      var known = el("p", "", "What they could have known: ");
      codes.forEach(function (code, i) {
        if (i) { known.appendChild(document.createTextNode("; ")); }
        var c = CODES.indexOf(code);
        append(known, (c >= 0 ? D.cards[c] : code) + " ");
        known.appendChild(names(m.known[code].map(function (q) { return D.players.indexOf(q); })));
      });
      node.appendChild(known);
    }
    node.appendChild(el("p", "", "Cost: " + m.cost));
    if (m.explanations) {
      var fold = el("details", "why-card");
      fold.open = true;
      fold.appendChild(el("summary", "", "Why: how " + viewName(m.view) + " could know it"));
      var list = el("ul", "why-list");
      m.explanations.forEach(function (pair) {
        var li = el("li", "why");
        if (pair[0]) { li.appendChild(append(el("strong"), pair[0])); li.appendChild(document.createTextNode(" — ")); }
        append(li, pair[1]);
        list.appendChild(li);
      });
      fold.appendChild(list);
      node.appendChild(fold);
      return;  // the cards' own explanations are a click away in the grid
    }
    codes.forEach(function (code) {
      var c = CODES.indexOf(code);
      var texts = c >= 0 ? whyOf(m.view, m.at, c) : null;
      if (!texts) { return; }
      var fold = el("details", "why-card");
      fold.appendChild(el("summary", "", "Why, for " + D.cards[c]));
      fold.appendChild(whyList(texts));
      node.appendChild(fold);
    });
  }

  function drawPlayers(s) {
    var table = $("players");
    table.textContent = "";
    var head = el("tr");
    ["player", "held", "known in this view"].forEach(function (t) { head.appendChild(el("th", "", t)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = el("tbody");
    var step = D.steps[state.step];
    for (var p = 0; p < NP; p++) {
      var tr = el("tr");
      tr.dataset.player = D.players[p];
      var name = el("td");
      name.appendChild(who(p));
      if (step.turn === p) { name.appendChild(el("span", "muted", " (to play)")); }
      tr.appendChild(name);
      tr.appendChild(el("td", "", String(step.counts[p])));
      var cards = [];
      s.holders.forEach(function (h, c) { if (h.length === 1 && h[0] === p) { cards.push(D.cards[c]); } });
      tr.appendChild(el("td", "known", cards.length ? cards.join(" ") : "—"));
      body.appendChild(tr);
    }
    table.appendChild(body);
  }

  function drawBooks(s) {
    var node = $("books");
    node.textContent = "";
    var books = taken(state.step);
    var done = Object.keys(books).map(Number).sort(function (a, b) { return books[a].event - books[b].event; });
    var p1 = el("p");
    if (!done.length) {
      p1.appendChild(el("span", "none", "No book taken yet."));
    } else {
      p1.appendChild(document.createTextNode("Taken: "));
      done.forEach(function (b, i) {
        if (i) { p1.appendChild(document.createTextNode(", ")); }
        var r = books[b];
        p1.appendChild(document.createTextNode(D.books[b].pretty + " "));
        p1.appendChild(r.team ? el("span", "t" + r.team, "team " + r.team) : el("span", "muted", "nobody"));
      });
    }
    node.appendChild(p1);
    var claims = D.view[state.view].claimable[state.step];
    var p2 = el("div", "claimable");
    if (!claims.length) {
      p2.appendChild(el("p", "none", "Nothing claimable in this view."));
    } else {
      var list = el("ul");
      claims.forEach(function (pair) {
        var li = el("li");
        li.dataset.book = D.books[pair[0]].name;
        li.appendChild(el("span", "t" + pair[1], "team " + pair[1]));
        var parts = {};
        var order = [];
        D.books[pair[0]].cards.forEach(function (c) {
          var p = s.holders[c][0];
          if (!parts[p]) { parts[p] = []; order.push(p); }
          parts[p].push(D.cards[c]);
        });
        append(li, " can claim " + D.books[pair[0]].pretty + ": ");
        order.forEach(function (p, i) {
          if (i) { li.appendChild(document.createTextNode(", ")); }
          li.appendChild(who(p));
          append(li, " " + parts[p].join(" "));
        });
        list.appendChild(li);
      });
      p2.appendChild(list);
    }
    node.appendChild(p2);
  }

  function drawThreats() {
    var node = $("threats");
    node.textContent = "";
    var step = D.steps[state.step];
    if (!step.threats.length) {
      node.appendChild(el("p", "none", "Nobody could take a book by asking, in their own view."));
    } else {
      var list = el("ul");
      step.threats.forEach(function (t) {
        var li = el("li");
        li.appendChild(who(t[0]));
        li.appendChild(document.createTextNode(" could take " + D.books[t[1]].pretty + " if given the turn"));
        list.appendChild(li);
      });
      node.appendChild(list);
    }
    step.lockouts.forEach(function (l) {
      var p = el("p", "bad", "Lockout on " + D.books[l[0]].pretty + ": ");
      p.appendChild(names(l[1], "and"));
      p.appendChild(document.createTextNode(" (both teams): whoever gets the turn first takes it."));
      node.appendChild(p);
    });
    if (D.unjudged.length) {
      node.appendChild(el("p", "muted", "Without a Hand line: " + D.unjudged.join(", ") + " (their threats are not known)."));
    }
  }

  function drawEvents() {
    var list = $("events");
    var items = list.children;
    for (var i = 0; i < items.length; i++) {
      var n = Number(items[i].dataset.event);
      items[i].classList.toggle("current", n === state.step);
      items[i].classList.toggle("future", n > state.step);
    }
    var current = list.querySelector("li.current");
    if (current) {
      var top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  function drawMistakeList() {
    var items = $("mistakes").children;
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle("current", Number(items[i].dataset.mistake) === state.mistake);
    }
  }

  // ------------------------------------------------------------ built once

  function build() {
    $("title").textContent = D.title;
    document.title = "Replay: " + D.title;
    $("subtitle").textContent =
      "record " + D.record + " · " + D.rules + " rules · " + D.deck + " deck · " + D.events.length +
      " events · " + (/so far$/.test(D.score) ? "score " : "final score ") + D.score;  // (an unfinished record's is so far)
    if (D.report) {
      var back = $("back");
      back.hidden = false;
      var a = el("a", "", "The post-game report");
      a.href = encodeURI(D.report);
      back.appendChild(a);
    }
    var slider = $("slider");
    slider.max = String(D.last);
    slider.addEventListener("input", function () { go(Number(slider.value), state.view); });
    var select = $("view");
    D.views.forEach(function (v) {
      var label = v === PUBLIC ? "public" : v + (D.hands[v] === "worked out" ? " (hand worked out)" : "");
      var option = el("option", "", label);
      option.value = v;
      select.appendChild(option);
    });
    select.addEventListener("change", function () {
      go(state.step, select.value);
      select.blur(); // (kept, its focus took the arrow keys: they step through the game)
    });
    $("first").addEventListener("click", function () { go(0, state.view); });
    $("prev").addEventListener("click", function () { go(state.step - 1, state.view); });
    $("next").addEventListener("click", function () { go(state.step + 1, state.view); });
    $("end").addEventListener("click", function () { go(D.last, state.view); });
    document.addEventListener("keydown", function (e) {
      var tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
      var moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (e.key in moves) { go(state.step + moves[e.key], state.view); e.preventDefault(); }
      else if (e.key === "Home") { go(0, state.view); e.preventDefault(); }
      else if (e.key === "End") { go(D.last, state.view); e.preventDefault(); }
    });
    window.addEventListener("hashchange", fromHash);

    var byEvent = {};
    D.mistakes.forEach(function (m, k) { (byEvent[m.event] = byEvent[m.event] || []).push(k); });
    var events = $("events");
    var deal = el("li", "");
    deal.dataset.event = "0";
    deal.appendChild(el("span", "n", "0"));
    deal.appendChild(el("span", "muted", "the deal"));
    deal.addEventListener("click", function () { go(0, state.view); });
    events.appendChild(deal);
    D.events.forEach(function (e, i) {
      var n = i + 1;
      var li = el("li", e.kind === "claim" ? "claim" : "");
      li.dataset.event = String(n);
      li.appendChild(el("span", "n", String(e.n)));
      var text = runs(el("span", "text"), e.text);
      text.appendChild(document.createTextNode(" — "));
      text.appendChild(el("span", resultClass(e), e.result));
      if (e.comment) { text.appendChild(el("span", "muted", "  # " + e.comment)); }
      if (e.broken) {
        var mark = el("span", "tag broken", "rule break");
        mark.title = e.broken;
        text.appendChild(mark);
      }
      (byEvent[n] || []).forEach(function (k) {
        var tag = el("button", "tag", D.mistakes[k].kind);
        tag.type = "button";
        tag.dataset.mistake = String(k);
        tag.addEventListener("click", function (ev) { ev.stopPropagation(); chooseMistake(k); });
        text.appendChild(tag);
      });
      li.appendChild(text);
      if (n > D.last) {
        li.classList.add("untrusted");
        li.title = "after a rule break: not analyzed";
      } else {
        li.addEventListener("click", function () { go(n, state.view); });
      }
      events.appendChild(li);
    });

    var list = $("mistakes");
    if (!D.mistakes.length) { list.appendChild(el("li", "muted", "No mistakes found.")); }
    D.mistakes.forEach(function (m, k) {
      var li = el("li");
      li.dataset.mistake = String(k);
      var button = el("button");
      button.type = "button";
      button.appendChild(el("span", "muted", "event " + m.number + " "));
      var p = D.players.indexOf(m.player);
      if (p >= 0) { button.appendChild(who(p)); }
      button.appendChild(el("span", "tag", m.kind));
      append(button, (m.book ? m.book + ": " : "") + m.cost);
      button.addEventListener("click", function () { chooseMistake(k); });
      li.appendChild(button);
      list.appendChild(li);
    });
  }

  build();
  if (!fromHash()) { go(0, PUBLIC); }
})();
