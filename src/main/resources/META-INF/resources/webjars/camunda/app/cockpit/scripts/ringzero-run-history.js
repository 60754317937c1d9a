// RingZero's "Run history" view in Cockpit (a Camunda 7 frontend plugin: a route and its menu
// entry). Camunda 7 Community's Cockpit shows running instances only; agent runs finish in
// milliseconds, so this view lists finished runs with RingZero's own outcome, read from the
// platform's analyst route (/api/v1/analyst/runs) with Cockpit's login (the webapp's session).

const PATH = '/ringzero-run-history';
const API = '/api/v1/analyst/runs';
const GATES_API = '/api/v1/analyst/gates';
const STATUSES = ['succeeded', 'failed', 'partially_failed', 'rate_limited', 'cooldown', 'fenced', 'denied',
  'skipped_offline', 'dropped_concurrency'];
const GATE_STATES = ['executed', 'failed', 'denied', 'expired', 'fenced'];

/** What the view lists: agent runs, or gates (the approval desk's instances). */
const MODES = {
  runs: {
    api: API, param: 'status', statuses: STATUSES, items: (page) => page.runs, empty: 'No finished runs match.',
    columns: ['Created', 'Owner', 'Agent', 'Kind', 'Status', 'Reason', 'Trigger', 'Duration', ''],
    rows: (run) => rows(run),
  },
  gates: {
    api: GATES_API, param: 'state', statuses: GATE_STATES, items: (page) => page.gates, empty: 'No ended gates match.',
    columns: ['Filed', 'Owner', 'Intent', 'Gadget', 'Agent', 'State', 'Decided by', 'Run', ''],
    rows: (gate) => gateRows(gate),
  },
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([name, value]) => {
    if (value === null || value === undefined || value === false) {
      return;
    }
    if (name === 'class') {
      node.className = value;
    } else if (name === 'text') {
      node.textContent = value;
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  });
  children.flat().forEach((child) => {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  });
  return node;
}

/** Cockpit's Bootstrap styles buttons and alerts with a display that beats the hidden attribute. */
function show(node, visible) {
  node.hidden = !visible;
  node.style.display = visible ? '' : 'none';
}

const STYLE = `
.ringzero-run-history { padding: 1rem 1.5rem; }
.ringzero-run-history .rz-filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end;
  margin: 1rem 0; }
.ringzero-run-history .rz-field { margin: 0; min-width: 11rem; flex: 1 1 11rem; max-width: 16rem; }
.ringzero-run-history .rz-details td { background: #fafafa; }
.ringzero-run-history .rz-transcript { max-height: 24rem; overflow: auto; }
`;

async function read(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body.detail || `HTTP ${response.status}`);
  }
  return body;
}

function field(id, label, input) {
  input.id = id;
  return el('div', { class: 'form-group rz-field' }, el('label', { for: id, text: label }), input);
}

function isoOf(localValue) {
  return localValue ? new Date(localValue).toISOString() : null;
}

function render(container) {
  const agent = el('input', { class: 'form-control', name: 'agent', placeholder: 'agent id' });
  const gadget = el('input', { class: 'form-control', name: 'gadget', placeholder: 'gadget id' });
  const what = el('select', { class: 'form-control', name: 'what' },
      el('option', { value: 'runs', text: 'agent runs' }), el('option', { value: 'gates', text: 'gates' }));
  const status = el('select', { class: 'form-control', name: 'status' });
  const head = el('tr');
  let mode = MODES.runs;
  function useMode() {
    mode = MODES[what.value];
    status.replaceChildren(el('option', { value: '', text: 'any' }),
        ...mode.statuses.map((value) => el('option', { value, text: value })));
    head.replaceChildren(...mode.columns.map((title) => el('th', { scope: 'col', text: title })));
    empty.textContent = mode.empty;
  }
  const from = el('input', { class: 'form-control', type: 'datetime-local', name: 'from' });
  const to = el('input', { class: 'form-control', type: 'datetime-local', name: 'to' });
  const apply = el('button', { type: 'submit', class: 'btn btn-primary', text: 'Show' });
  const form = el('form', { class: 'rz-filters', 'aria-label': 'Filter runs' },
      field('rz-what', 'Show', what), field('rz-agent', 'Agent', agent), field('rz-gadget', 'Gadget', gadget),
      field('rz-status', 'Status', status), field('rz-from', 'From', from), field('rz-to', 'Before', to), apply);
  const problem = el('div', { class: 'alert alert-danger', role: 'alert' });
  const body = el('tbody');
  const table = el('table', { class: 'table table-striped rz-runs', 'aria-label': 'Finished runs and gates' },
      el('thead', {}, head), body);
  const more = el('button', { type: 'button', class: 'btn btn-default', text: 'More' });
  const empty = el('p', { class: 'rz-empty', text: 'No finished runs match.' });
  [problem, more, empty].forEach((node) => show(node, false));
  let next = null;

  function query(cursor) {
    const params = new URLSearchParams();
    if (agent.value.trim()) params.set('agent', agent.value.trim());
    if (gadget.value.trim()) params.set('gadget', gadget.value.trim());
    if (status.value) params.set(mode.param, status.value);
    if (isoOf(from.value)) params.set('from', isoOf(from.value));
    if (isoOf(to.value)) params.set('to', isoOf(to.value));
    if (cursor) params.set('cursor', cursor);
    return `${mode.api}?${params}`;
  }

  async function load(cursor) {
    show(problem, false);
    try {
      const page = await read(query(cursor));
      if (!cursor) {
        body.replaceChildren();
      }
      mode.items(page).forEach((item) => body.append(...mode.rows(item)));
      next = page.next || null;
      show(more, Boolean(next));
      show(empty, body.children.length === 0);
    } catch (error) {
      problem.textContent = `The platform's run history could not be read: ${error.message}`;
      show(problem, true);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    load(null);
  });
  more.addEventListener('click', () => load(next));
  what.addEventListener('change', () => {
    useMode();
    load(null);
  });
  useMode();

  container.replaceChildren(el('style', { text: STYLE }),
      el('section', { class: 'ringzero-run-history', 'aria-labelledby': 'rz-title' },
      el('h1', { id: 'rz-title', class: 'section-title', text: 'Run history' }),
      el('p', { text: 'Finished agent runs and ended gates of every owner, with RingZero’s outcome: why each '
          + 'ended, what it did, the decisions that started it and, for llm runs, the transcript.' }),
      form, problem, table, empty, more));
  load(null);
}

function rows(run) {
  const detailsCell = el('td', { colspan: 9 });
  const detailsRow = el('tr', { class: 'rz-details' }, detailsCell);
  show(detailsRow, false);
  const toggle = el('button', { type: 'button', class: 'btn btn-default btn-xs', 'aria-expanded': 'false',
    text: 'Details' });
  toggle.addEventListener('click', async () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    show(detailsRow, open);
    if (open && !detailsCell.hasChildNodes()) {
      try {
        detailsCell.append(...details(await read(`${API}/${encodeURIComponent(run.id)}`)));
      } catch (error) {
        detailsCell.append(el('p', { class: 'text-danger', text: error.message }));
      }
    }
  });
  const row = el('tr', { class: 'rz-run', 'data-run': run.id, 'data-status': run.status },
      el('td', {}, el('time', { datetime: run.createdAt, text: new Date(run.createdAt).toLocaleString() })),
      el('td', { text: run.ownerId }),
      el('td', { title: run.agentId, text: run.agentName || run.agentId }),
      el('td', { text: run.kind }),
      el('td', {}, el('strong', { text: run.status })),
      el('td', { text: run.reason || '' }),
      el('td', { text: run.triggerKind }),
      el('td', { text: run.durationMs === undefined || run.durationMs === null ? '' : `${run.durationMs} ms` }),
      el('td', {}, toggle));
  return [row, detailsRow];
}

function gateRows(gate) {
  const detailsCell = el('td', { colspan: 9 }, gateDetails(gate));
  const detailsRow = el('tr', { class: 'rz-details' }, detailsCell);
  show(detailsRow, false);
  const toggle = el('button', { type: 'button', class: 'btn btn-default btn-xs', 'aria-expanded': 'false',
    text: 'Details' });
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    show(detailsRow, open);
  });
  const row = el('tr', { class: 'rz-gate', 'data-gate': gate.id, 'data-state': gate.state },
      el('td', {}, el('time', { datetime: gate.filedAt, text: new Date(gate.filedAt).toLocaleString() })),
      el('td', { text: gate.ownerId || '' }),
      el('td', {}, el('code', { text: gate.intent })),
      el('td', { text: gate.gadgetId || '' }),
      el('td', { text: gate.agentId || 'direct' }),
      el('td', {}, el('strong', { text: gate.state })),
      el('td', { text: gate.decidedBy || '' }),
      el('td', { text: gate.runId || '' }),
      el('td', {}, toggle));
  return [row, detailsRow];
}

function gateDetails(gate) {
  const parts = [];
  if (gate.rationale) {
    parts.push(el('h4', { text: 'Why it was asked' }), el('p', { text: gate.rationale }));
  }
  if (gate.decisionNote) {
    parts.push(el('h4', { text: 'Decision note' }), el('p', { text: gate.decisionNote }));
  }
  parts.push(el('h4', { text: 'Frozen payload' }),
      el('pre', { class: 'rz-payload', text: JSON.stringify(gate.payload, null, 2) }),
      el('p', {}, 'SHA-256 ', el('code', { text: gate.payloadSha256 || '' })));
  if (gate.result !== undefined && gate.result !== null) {
    parts.push(el('h4', { text: 'Result' }), el('pre', { text: JSON.stringify(gate.result, null, 2) }));
  }
  return parts;
}

function details(found) {
  const actions = (found.detail.actions || []).map((action) => el('li', {},
      el('code', { text: action.command }), action.gadget ? ` on ${action.gadget}` : '',
      ` → ${action.verdict || ''} / ${action.outcome || 'pending'}`, action.errorCode ? ` (${action.errorCode})` : ''));
  const decisions = (found.decisions || []).map((decision) => el('li', {},
      el('strong', { text: decision.reason }), ` ${new Date(decision.decidedAt).toLocaleString()}`,
      decision.detail ? ` · ${decision.detail}` : ''));
  const parts = [
    el('h4', { text: 'Actions' }),
    actions.length ? el('ol', { class: 'rz-actions' }, actions) : el('p', { text: 'No actions.' }),
    el('h4', { text: 'Decisions' }),
    decisions.length ? el('ul', { class: 'rz-decisions' }, decisions) : el('p', { text: 'No ledger entry names it.' }),
  ];
  if (found.detail.session) {
    parts.push(el('h4', { text: 'Transcript' }),
        el('pre', { class: 'rz-transcript', text: JSON.stringify(found.detail.session, null, 2) }));
  }
  return parts;
}

export default [
  {
    id: 'ringzero.runHistory.navigation',
    pluginPoint: 'cockpit.navigation',
    priority: 5,
    properties: { path: PATH },
    render: (node) => {
      node.replaceChildren(el('a', { href: `#${PATH}`, text: 'Run history' }));
    },
  },
  {
    id: 'ringzero.runHistory.route',
    pluginPoint: 'cockpit.route',
    priority: 5,
    properties: { path: PATH },
    render: (node) => render(node),
  },
];
