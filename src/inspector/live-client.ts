/**
 * The inspector's script in the viewer page (plain browser JavaScript, kept as a string so the package needs no
 * extra asset). It follows one session over Server-Sent Events, feeds each new event line to the viewer's
 * `window.turnloopViewer.addSteps`, lists every session of the process, and drives the run control. Session text
 * reaches the page with `textContent` only.
 */
export const LIVE_CLIENT_JS = String.raw`(() => {
  'use strict';
  const config = JSON.parse(document.getElementById('turnloop-live').textContent);
  const token = new URLSearchParams(location.search).get('token') || '';
  const withToken = (path) => path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
  const el = (tag, attrs, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const bar = el('div', { id: 'live-bar', role: 'region', 'aria-label': 'live run control' });
  const sessions = el('select', { id: 'live-sessions', 'aria-label': 'sessions of this process' });
  const status = el('span', { id: 'live-status', 'aria-live': 'polite' }, 'connecting…');
  const buttons = {};
  for (const [action, label, title] of [
    ['pause', 'Pause', 'hold the run before its next step'],
    ['step', 'Step', 'run one step, then hold again'],
    ['resume', 'Continue', 'run until a breakpoint'],
    ['abort', 'Abort', 'abort the run (every tool call still gets its result)'],
  ]) {
    const button = el('button', { type: 'button', id: 'live-' + action, title }, label);
    button.addEventListener('click', () => control({ action }));
    buttons[action] = button;
  }
  const breakpoints = el('fieldset', { id: 'live-breakpoints' });
  breakpoints.append(el('legend', {}, 'Break'));
  const kinds = [
    ['model_call', 'before a model call'],
    ['tools', 'before tools'],
    ['continue', 'on a Continue'],
    ['terminal', 'on the terminal'],
  ];
  const boxes = kinds.map(([kind, label]) => {
    const box = el('input', { type: 'checkbox', id: 'bp-' + kind, value: kind });
    const wrap = el('label', { for: 'bp-' + kind });
    wrap.append(box, document.createTextNode(' ' + label));
    breakpoints.append(wrap);
    box.addEventListener('change', sendBreakpoints);
    return box;
  });
  const transition = el('input', { type: 'text', id: 'bp-transition', placeholder: 'transition id, e.g. sampling|model_done|0', 'aria-label': 'break on a transition id', size: '28' });
  transition.addEventListener('change', sendBreakpoints);
  breakpoints.append(transition);
  const save = el('a', { id: 'live-save', href: '#' }, 'Save log');
  bar.append(el('strong', {}, 'live'), sessions, buttons.pause, buttons.step, buttons.resume, buttons.abort, breakpoints, status, save);
  document.body.prepend(bar);

  sessions.addEventListener('change', () => {
    const url = new URL(location.href);
    url.searchParams.set('session', sessions.value);
    location.href = url.toString();
  });

  function sendBreakpoints() {
    const list = boxes.filter((b) => b.checked).map((b) => ({ kind: b.value }));
    if (transition.value.trim() !== '') list.push({ kind: 'transition', id: transition.value.trim() });
    control({ action: 'breakpoints', breakpoints: list });
  }

  async function control(body) {
    if (!config.session) return;
    const response = await fetch(withToken('/api/sessions/' + config.session + '/control'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-turnloop-inspector-token': token },
      body: JSON.stringify(body),
    });
    if (!response.ok) status.textContent = 'control refused: ' + (await response.text());
  }

  function showStatus(s) {
    const held = s.mode === 'paused' ? ' at step ' + s.heldStep + ' (' + s.heldBecause + ')' : '';
    status.textContent = s.mode + held;
    document.body.dataset.liveMode = s.mode;
    buttons.pause.disabled = s.mode !== 'running';
    buttons.step.disabled = s.mode === 'ended';
    buttons.resume.disabled = s.mode === 'running' || s.mode === 'ended';
    buttons.abort.disabled = s.mode === 'ended';
    const wanted = new Set(s.breakpoints.filter((b) => b.kind !== 'transition').map((b) => b.kind));
    for (const box of boxes) box.checked = wanted.has(box.value);
    const t = s.breakpoints.find((b) => b.kind === 'transition');
    if (document.activeElement !== transition) transition.value = t ? t.id : '';
  }

  if (config.session) save.href = withToken('/api/sessions/' + config.session + '/log');
  // Live: open at the newest step, so the page follows the run (the viewer keeps following while at the end).
  if (config.session && window.turnloopViewer && !/step=/.test(location.hash)) window.turnloopViewer.goTo(window.turnloopViewer.length - 1);
  let seen = 0;
  const source = new EventSource(withToken('/api/stream'));
  source.addEventListener('sessions', (e) => {
    const list = JSON.parse(e.data);
    sessions.replaceChildren(...list.map((s) => {
      const option = el('option', { value: s.id }, s.id + ' · ' + s.name + ' · ' + s.status.mode);
      if (s.id === config.session) option.selected = true;
      return option;
    }));
    // A page opened before any run shows the first one as soon as it starts.
    if (!config.session && list.length > 0) {
      const url = new URL(location.href);
      url.searchParams.set('session', list[0].id);
      location.replace(url.toString());
    }
  });
  source.addEventListener('line', (e) => {
    const { session, line } = JSON.parse(e.data);
    if (session !== config.session) return;
    seen += 1;
    if (seen <= config.skipLines) return;
    const parsed = JSON.parse(line);
    if (parsed.kind === 'event' && window.turnloopViewer) window.turnloopViewer.addSteps([parsed.event]);
  });
  source.addEventListener('status', (e) => {
    const { session, status: s } = JSON.parse(e.data);
    if (session === config.session) showStatus(s);
  });
  source.onerror = () => {
    if (document.body.dataset.liveMode === 'ended') { source.close(); status.textContent = 'ended (the inspector has stopped)'; }
  };
})();`;
