// The turnloop viewer's page script, inlined into the HTML by src/viz/html.ts (plain ES2020, no build step).
// Invariant: text that comes from a session (model output, tool results, event summaries) is only ever put on
// the page with textContent; this script never uses innerHTML, insertAdjacentHTML or document.write.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('turnloop-data').textContent);
  var chart = data.chart;
  var frames = data.frames || [];
  var transitionsById = {};
  chart.transitions.forEach(function (t) { transitionsById[t.id] = t; });
  var statesById = {};
  chart.states.forEach(function (s) { statesById[s.id] = s; });

  var svg = document.getElementById('chart');
  var stateEls = {};
  svg.querySelectorAll('[data-state]').forEach(function (el) { stateEls[el.getAttribute('data-state')] = el; });
  var edgeEls = {};
  svg.querySelectorAll('[data-transition]').forEach(function (el) { edgeEls[el.getAttribute('data-transition')] = el; });

  function $(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined && text !== null) el.textContent = String(text);
    return el;
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }
  function fill(list, items, build, emptyText) {
    clear(list);
    if (items.length === 0) { list.appendChild(make('li', 'empty', emptyText)); return; }
    items.forEach(function (item) { list.appendChild(build(item)); });
  }
  function refText(ref) {
    if (!ref) return '';
    if (!ref.params) return ref.name;
    return ref.name + '(' + Object.keys(ref.params).map(function (k) { return k + '=' + JSON.stringify(ref.params[k]); }).join(', ') + ')';
  }
  function describeTransition(t) {
    var from = t.source === null ? '(any state)' : t.source;
    var to = t.target === null ? '(stays)' : t.target;
    var text = from + ' → ' + to + ' on ' + t.event;
    if (t.guard) text += ' [' + refText(t.guard) + ']';
    if (t.actions.length) text += ' / ' + t.actions.map(refText).join(', ');
    if (t.continue) text += ' ↻ ' + t.continue;
    return text;
  }
  function ancestors(id) {
    var out = [];
    var s = statesById[id];
    while (s && s.parent) { out.push(s.parent); s = statesById[s.parent]; }
    return out;
  }
  function fmt(n) { return Number(n).toLocaleString('en-US'); }

  var current = 0;
  var slider = $('scrubber');

  function highlight(frame) {
    Object.keys(stateEls).forEach(function (id) { stateEls[id].classList.remove('active', 'visited', 'active-parent'); });
    Object.keys(edgeEls).forEach(function (id) {
      edgeEls[id].classList.remove('taken');
      var path = edgeEls[id].querySelector('path');
      if (path) path.setAttribute('marker-end', 'url(#arrow)');
    });
    frame.transitions.forEach(function (id) {
      var t = transitionsById[id];
      if (!t) return;
      [t.source, t.target].forEach(function (s) { if (s && stateEls[s]) stateEls[s].classList.add('visited'); });
      var edge = edgeEls[id];
      if (edge) {
        edge.classList.add('taken');
        var path = edge.querySelector('path');
        if (path) path.setAttribute('marker-end', 'url(#arrow-taken)');
      }
    });
    var active = stateEls[frame.state];
    if (active) active.classList.add('active');
    ancestors(frame.state).forEach(function (id) { if (stateEls[id]) stateEls[id].classList.add('active-parent'); });
    document.body.setAttribute('data-active-state', frame.state);
    document.body.setAttribute('data-taken', frame.transitions.join(' '));
    if (active) keepInView(active);
  }

  // Scrolls the chart pane (and nothing else) so that a state is visible, centring it when it was not.
  function keepInView(el) {
    var pane = $('chart-pane');
    if (pane.classList.contains('fit') || !el.getBBox) return;
    var box = el.getBBox();
    var pad = 24;
    var visibleX = box.x >= pane.scrollLeft + pad && box.x + box.width <= pane.scrollLeft + pane.clientWidth - pad;
    var visibleY = box.y >= pane.scrollTop + pad && box.y + box.height <= pane.scrollTop + pane.clientHeight - pad;
    if (!visibleX) pane.scrollLeft = box.x + box.width / 2 - pane.clientWidth / 2;
    if (!visibleY) pane.scrollTop = box.y + box.height / 2 - pane.clientHeight / 2;
  }

  function renderCounters(c) {
    var rows = [
      ['turn', c.turnCount],
      ['model calls', c.modelCalls],
      ['max-output recoveries', c.maxOutputTokensRecoveryCount + ' / ' + data.limits.maxOutputTokensRecovery],
      ['autocompact failures', c.autocompactFailures + ' / ' + data.limits.autocompactMaxFailures],
      ['model', c.model],
      ['tokens', fmt(c.tokens)],
      ['autocompact at', fmt(c.autocompactThreshold)],
      ['blocking limit', fmt(c.blockingLimit)],
    ];
    var body = $('counters');
    clear(body);
    rows.forEach(function (row) {
      var tr = make('tr');
      tr.appendChild(make('td', null, row[0]));
      tr.appendChild(make('td', 'value', row[1]));
      body.appendChild(tr);
    });
    var share = Math.min(1, c.tokens / c.effectiveWindow);
    var fillEl = $('token-fill');
    fillEl.style.width = (share * 100).toFixed(2) + '%';
    fillEl.className = 'fill' + (c.tokens >= c.blockingLimit ? ' over' : c.tokens >= c.autocompactThreshold ? ' warn' : '');
    $('mark-autocompact').style.left = ((c.autocompactThreshold / c.effectiveWindow) * 100).toFixed(2) + '%';
    $('mark-blocking').style.left = ((c.blockingLimit / c.effectiveWindow) * 100).toFixed(2) + '%';
  }

  function renderMessages(index) {
    var list = $('messages');
    clear(list);
    var removed = {};
    var all = [];
    for (var i = 0; i <= index; i++) {
      frames[i].emitted.forEach(function (m) {
        if (m.type === 'tombstone') removed[m.text.replace(/^removes /, '')] = true;
        all.push({ message: m, fresh: i === index });
      });
    }
    if (all.length === 0) { list.appendChild(make('li', 'empty', 'nothing emitted yet')); return; }
    all.forEach(function (entry) {
      var m = entry.message;
      var li = make('li', (entry.fresh ? 'msg-new ' : '') + (removed[m.uuid] ? 'tombstoned' : ''));
      li.appendChild(make('div', 'msg-head', m.type + (m.tag ? ' · ' + m.tag : '') + ' · ' + m.uuid));
      li.appendChild(make('div', 'msg-text', m.text));
      list.appendChild(li);
    });
    var box = $('messages-box');
    box.scrollTop = box.scrollHeight;
  }

  function effectItem(e) { return make('li', 'mono', e.type + (e.summary ? ': ' + e.summary : '') + '  (' + e.id + ')'); }

  function render(index) {
    if (frames.length === 0) return;
    current = Math.max(0, Math.min(frames.length - 1, index));
    var frame = frames[current];
    slider.value = String(current);
    $('position').textContent = 'step ' + current + ' / ' + (frames.length - 1);
    $('prev').disabled = current === 0;
    $('next').disabled = current === frames.length - 1;
    $('event-type').textContent = frame.event ? frame.event.type : '(initial state)';
    $('event-summary').textContent = frame.event ? frame.event.summary : '';
    var name = $('state-name');
    name.textContent = frame.state;
    name.className = frame.status === 'done' ? 'done' : '';
    $('state-note').textContent = frame.status === 'done'
      ? 'terminal: ' + frame.terminal
      : frame.continueReason ? 'last continue: ' + frame.continueReason : '';
    highlight(frame);
    fill($('taken'), frame.transitions.map(function (id) { return transitionsById[id]; }).filter(Boolean), function (t) {
      return make('li', 'mono', describeTransition(t));
    }, 'no transition (event ignored)');
    fill($('effects'), frame.effects, effectItem, 'none');
    fill($('pending'), frame.pending, effectItem, 'none');
    renderCounters(frame.counters);
    renderMessages(current);
    var items = $('timeline').children;
    for (var i = 0; i < items.length; i++) items[i].classList.toggle('current', i === current);
    var item = items[current];
    var list = $('timeline');
    if (item && (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = item.offsetTop - list.clientHeight / 2;
    }
    if (history.replaceState) history.replaceState(null, '', '#step=' + current);
  }

  function setupTimeline() {
    var list = $('timeline');
    frames.forEach(function (frame, i) {
      var li = make('li', 'mono', i + '. ' + (frame.event ? frame.event.type : '(initial state)') + ' → ' + frame.state);
      li.addEventListener('click', function () { render(i); });
      list.appendChild(li);
    });
  }

  $('fit').addEventListener('click', function () { $('chart-pane').classList.toggle('fit'); });
  if (frames.length === 0) return;
  slider.max = String(frames.length - 1);
  slider.addEventListener('input', function () { render(Number(slider.value)); });
  $('prev').addEventListener('click', function () { render(current - 1); });
  $('next').addEventListener('click', function () { render(current + 1); });
  document.addEventListener('keydown', function (e) {
    if (e.target === slider) return; // the range input steps by itself
    if (e.key === 'ArrowRight') { render(current + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { render(current - 1); e.preventDefault(); }
    else if (e.key === 'Home') { render(0); e.preventDefault(); }
    else if (e.key === 'End') { render(frames.length - 1); e.preventDefault(); }
  });
  setupTimeline();
  var match = /step=(\d+)/.exec(location.hash);
  render(match ? Number(match[1]) : 0);
})();
