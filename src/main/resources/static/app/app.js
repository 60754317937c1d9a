// The automations page: sign in, then every few seconds read the owner's gadgets, agents, their
// runs and decision ledger, pending gates, the inbox and the audit trail, and show them. Every
// decision stays with the platform; this page only asks and shows.

import { api, ApiError, session, signIn, signOut } from './api.js';
import { el, relative, renderIfChanged, syncKeyed, when } from './dom.js';
import { setUpEditor, updateEditorAgents } from './editor.js';

const POLL_MS = 3000;
const TASKLIST_TASK = '/camunda/app/tasklist/default/#/?task=';

const $ = (id) => document.getElementById(id);
let timer = null;
let refreshing = false;

function say(message, isError = false) {
  const status = $('status');
  status.textContent = message;
  status.classList.toggle('error', isError);
}

function showSignIn(message = '') {
  clearTimeout(timer);
  timer = null;
  $('dashboard').hidden = true;
  $('sections').hidden = true;
  $('who').hidden = true;
  $('sign-in-view').hidden = false;
  $('sign-in-error').textContent = message;
}

function showDashboard() {
  const current = session();
  $('sign-in-view').hidden = true;
  $('dashboard').hidden = false;
  $('sections').hidden = false;
  $('who').hidden = false;
  $('who-name').textContent = current && current.account
      ? `Signed in as ${current.account.id} (${current.account.role})` : 'Signed in';
  refresh();
}

async function refresh() {
  if (refreshing) {
    return;
  }
  refreshing = true;
  clearTimeout(timer);
  try {
    const [gadgets, agents, gates, inbox, audit] = await Promise.all([api.gadgets(), api.agents(),
      api.pendingGates(), api.inbox(), api.audit()]);
    const details = await Promise.all(agents.map((agent) => Promise.all([api.runs(agent.id),
      api.decisions(agent.id)]).then(([runs, decisions]) => ({ runs, decisions }))));
    const byAgent = new Map(agents.map((agent, i) => [agent.id, { agent, ...details[i] }]));
    renderGadgets(gadgets, byAgent);
    renderGates(gates, byAgent);
    renderInbox(inbox);
    renderAudit(audit.entries);
    updateEditorAgents(agents, gadgets);
    document.body.dataset.refreshedAt = new Date().toISOString();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      await signOut();
      showSignIn('Your session ended; please sign in again.');
      return;
    }
    say(`Could not read from the platform: ${error.message}`, true);
  } finally {
    refreshing = false;
  }
  if (!$('dashboard').hidden) {
    timer = setTimeout(refresh, POLL_MS);
  }
}

// ------------------------------------------------------------------ gadgets and agents

const OTHER = '(no paired gadget)';

function renderGadgets(gadgets, byAgent) {
  const groups = gadgets.map((gadget) => ({ gadget, agents: [] }));
  const index = new Map(groups.map((group) => [group.gadget.id, group]));
  const other = { gadget: { id: OTHER, name: 'Agents without a paired gadget' }, agents: [], other: true };
  for (const entry of byAgent.values()) {
    const names = (entry.agent.spec && entry.agent.spec.gadgets) || [];
    const homes = names.map((id) => index.get(id)).filter(Boolean);
    (homes.length ? homes : [other]).forEach((group) => group.agents.push(entry));
  }
  if (other.agents.length) {
    groups.push(other);
  }
  $('no-gadgets').hidden = groups.length > 0;
  syncKeyed($('gadget-list'), groups, (group) => group.gadget.id, createGadget, updateGadget);
}

function createGadget(group) {
  const titleId = `gadget-${cssId(group.gadget.id)}-title`;
  return el('section', { class: 'gadget', 'data-gadget': group.gadget.id, 'aria-labelledby': titleId },
      el('div', { class: 'gadget-head' },
          el('h3', { id: titleId }),
          el('span', { class: 'presence' })),
      el('p', { class: 'quiet' }),
      el('div', { class: 'agents' }),
      el('p', { class: 'empty no-agents', text: 'No agents for this gadget yet.', hidden: true }));
}

function updateGadget(node, group) {
  const { gadget } = group;
  node.querySelector('h3').textContent = gadget.name && gadget.name !== gadget.id
      ? `${gadget.name} (${gadget.id})` : gadget.id;
  const presence = node.querySelector('.presence');
  const quiet = node.querySelector('.quiet');
  if (group.other) {
    presence.hidden = true;
    quiet.hidden = true;
  } else {
    presence.className = `presence ${gadget.online ? 'online' : 'offline'}`;
    presence.replaceChildren(gadget.online ? 'Online' : 'Offline',
        gadget.lastSeen ? el('span', { class: 'muted' }, ' · last seen ', when(gadget.lastSeen)) : '');
    const hours = gadget.quietHours;
    quiet.textContent = hours ? `Quiet hours ${hours.from}–${hours.to} (${hours.timeZone})` : 'No quiet hours';
  }
  node.querySelector('.no-agents').hidden = group.agents.length > 0;
  syncKeyed(node.querySelector('.agents'), group.agents, (entry) => entry.agent.id,
      (entry) => createAgent(entry, gadget.id), updateAgent);
}

function cssId(text) {
  return String(text).replace(/[^A-Za-z0-9_-]/g, '_');
}

function createAgent(entry, gadgetId) {
  const { agent } = entry;
  const base = `agent-${cssId(gadgetId)}-${cssId(agent.id)}`;
  const toggle = el('button', { type: 'button', class: 'switch', role: 'switch', 'aria-checked': 'false' },
      el('span', { class: 'switch-track', 'aria-hidden': 'true' }, el('span', { class: 'switch-thumb' })),
      el('span', { class: 'switch-text' }));
  toggle.addEventListener('click', () => switchAgent(toggle));
  const runNow = el('button', { type: 'button', class: 'run-now', text: 'Run now' });
  runNow.addEventListener('click', () => runAgentNow(runNow));
  const edit = el('button', { type: 'button', class: 'edit', text: 'Edit definition' });
  edit.addEventListener('click', () => {
    const target = $('definition-target');
    target.value = edit.closest('.agent').dataset.agent;
    target.dispatchEvent(new Event('change'));
    $('definition').focus();
  });
  return el('article', { class: 'agent', 'data-agent': agent.id, 'aria-labelledby': `${base}-name` },
      el('div', { class: 'agent-head' },
          el('h4', { id: `${base}-name`, class: 'agent-name' }),
          el('span', { class: 'kind' }),
          toggle),
      el('dl', { class: 'facts' },
          el('dt', { text: 'Last run' }), el('dd', { class: 'last-run' }),
          el('dt', { text: 'Next eligible' }), el('dd', { class: 'next-eligible' })),
      el('div', { class: 'agent-actions' }, runNow, edit),
      el('details', { class: 'runs' },
          el('summary', { text: 'Recent runs' }),
          el('ol', { class: 'run-list plain', 'aria-live': 'polite' })),
      el('details', { class: 'ledger' },
          el('summary', { text: 'Why didn’t it run? (decision ledger)' }),
          el('ol', { class: 'decision-list plain' })));
}

function updateAgent(node, entry) {
  const { agent, runs, decisions } = entry;
  node.dataset.enabled = String(agent.enabled);
  node.querySelector('.agent-name').textContent = agent.name;
  node.querySelector('.kind').textContent = agent.kind;
  const toggle = node.querySelector('.switch');
  if (!toggle.hasAttribute('aria-busy')) {
    toggle.setAttribute('aria-checked', String(agent.enabled));
    toggle.setAttribute('aria-label', `${agent.name} enabled`);
    toggle.querySelector('.switch-text').textContent = agent.enabled ? 'On' : 'Off';
  }
  const last = agent.lastRun;
  node.querySelector('.last-run').replaceChildren(...(last
      ? [statusBadge(last.status), ' ', when(last.createdAt), last.reason ? ` · ${last.reason}` : '']
      : ['never']));
  node.querySelector('.next-eligible').replaceChildren(...nextEligible(agent));
  renderIfChanged(node.querySelector('.run-list'), runs, (list) => list.length
      ? list.map(runItem) : [el('li', { class: 'empty', text: 'No runs yet.' })]);
  renderIfChanged(node.querySelector('.decision-list'), decisions, (list) => list.length
      ? list.map(decisionItem) : [el('li', { class: 'empty', text: 'No trigger was evaluated yet.' })]);
}

function nextEligible(agent) {
  if (!agent.enabled) {
    return ['switched off'];
  }
  const budget = agent.budget || {};
  const left = budget.runsLeftThisHour === undefined ? '' : ` (${budget.runsLeftThisHour} proactive runs left this hour)`;
  if (!budget.nextEligibleAt || new Date(budget.nextEligibleAt).getTime() <= Date.now()) {
    return [`now${left}`];
  }
  return [when(budget.nextEligibleAt), left];
}

function statusBadge(status) {
  return el('span', { class: `badge status-${cssId(status)}`, text: status });
}

function runItem(run) {
  const actions = (run.actions || []).map((action) => el('li', { class: 'action' },
      el('code', { text: action.command }),
      action.gadget ? ` on ${action.gadget}` : '',
      ' → ',
      statusBadge(action.outcome || action.verdict || 'pending'),
      action.errorCode ? ` (${action.errorCode})` : ''));
  return el('li', { class: 'run', 'data-run': run.id, 'data-status': run.status },
      el('div', {}, statusBadge(run.status), ' ', when(run.createdAt), ` · ${run.triggerKind}`,
          run.reason ? ` · ${run.reason}` : ''),
      actions.length ? el('ul', { class: 'actions' }, actions) : null);
}

/** The ledger's reason codes in words (docs/contracts.md, statuses and reason codes); others as they are. */
const REASONS = {
  matched: 'the trigger matched: it ran (or tried to; see its run)',
  disabled: 'the agent was switched off',
  over_budget: 'its proactive budget for the hour was spent',
  rate_limited: 'its proactive budget for the hour was spent',
  cooldown: 'it ran a moment ago and is cooling down',
  fenced: 'the agent changed (switched off, revised or deleted) or the gadget was unpaired meanwhile',
  gadget_offline: 'the gadget was offline',
  skipped_offline: 'the gadget was offline',
  dropped_concurrency: 'another run of it was still going',
  filtered_out: 'the event did not match the trigger’s filter',
  shed_overload: 'the platform was overloaded and dropped the event visibly',
};

function decisionItem(decision) {
  const words = REASONS[decision.reason];
  return el('li', { class: 'decision', 'data-reason': decision.reason },
      el('strong', { text: decision.reason }), words ? ` — ${words}` : '', ' ', when(decision.decidedAt),
      decision.triggerKind ? ` · ${decision.triggerKind}` : '',
      decision.detail ? el('div', { class: 'muted', text: decision.detail }) : null);
}

async function switchAgent(toggle) {
  const node = toggle.closest('.agent');
  const on = toggle.getAttribute('aria-checked') !== 'true';
  const name = node.querySelector('.agent-name').textContent;
  toggle.setAttribute('aria-busy', 'true');
  toggle.disabled = true;
  try {
    await api.enable(node.dataset.agent, on);
    toggle.setAttribute('aria-checked', String(on));
    toggle.querySelector('.switch-text').textContent = on ? 'On' : 'Off';
    say(`${name} is switched ${on ? 'on' : 'off'}.`);
  } catch (error) {
    say(`Could not switch ${name} ${on ? 'on' : 'off'}: ${error.message}`, true);
  } finally {
    toggle.removeAttribute('aria-busy');
    toggle.disabled = false;
    toggle.focus();
  }
  refresh();
}

async function runAgentNow(button) {
  const node = button.closest('.agent');
  const name = node.querySelector('.agent-name').textContent;
  try {
    const started = await api.runNow(node.dataset.agent);
    say(`${name}: run ${started.status}${started.reason ? ` (${started.reason})` : ''}.`);
    node.querySelector('details.runs').open = true;
  } catch (error) {
    say(`Could not run ${name}: ${error.message}`, true);
  }
  refresh();
}

// ------------------------------------------------------------------ gates, inbox, audit

function renderGates(gates, byAgent) {
  $('no-gates').hidden = gates.length > 0;
  $('approvals-count').textContent = gates.length ? `(${gates.length})` : '';
  renderIfChanged($('gate-list'), gates.map((gate) => ({ ...gate, agentName: agentName(byAgent, gate.agentId) })),
      (list) => list.map((gate) => el('li', { class: 'gate', 'data-gate': gate.id },
          el('div', {}, el('strong', {}, el('code', { text: gate.intent })),
              gate.gadgetId ? ` on ${gate.gadgetId}` : '',
              gate.agentName ? ` · by ${gate.agentName}` : ' · from your direct path',
              ' · filed ', when(gate.filedAt)),
          gate.rationale ? el('p', { class: 'muted', text: gate.rationale }) : null,
          gate.reviewTaskId
            ? el('a', { class: 'tasklist', href: TASKLIST_TASK + encodeURIComponent(gate.reviewTaskId),
              text: `Review ${gate.intent} in Tasklist` })
            : el('span', { class: 'muted', text: 'Its Tasklist form is being prepared…' }))));
}

function agentName(byAgent, id) {
  const entry = id ? byAgent.get(id) : null;
  return entry ? entry.agent.name : id;
}

function renderInbox(messages) {
  $('no-inbox').hidden = messages.length > 0;
  renderIfChanged($('inbox-list'), messages, (list) => list.map((message) => el('li', { class: 'message' },
      el('span', { class: 'badge', text: message.kind }), ' ', when(message.createdAt),
      el('div', { text: message.text }))));
}

function renderAudit(entries) {
  $('no-audit').hidden = entries.length > 0;
  renderIfChanged($('audit-list'), entries, (list) => list.map((entry) => el('li', { class: 'audit-entry' },
      when(entry.at), ' ', statusBadge(entry.kind), ' ', el('code', { text: entry.intent }),
      entry.gadgetId ? ` on ${entry.gadgetId}` : '', ` · ${entry.actor}`,
      entry.detail ? ` · ${entry.detail}` : '')));
}

// ------------------------------------------------------------------ start

function refreshTimes() {
  document.querySelectorAll('time[datetime]').forEach((time) => {
    time.textContent = relative(time.getAttribute('datetime'));
  });
}

document.addEventListener('DOMContentLoaded', () => {
  $('sign-in').addEventListener('submit', async (event) => {
    event.preventDefault();
    const id = $('account-id').value.trim();
    const password = $('password').value;
    if (!id || !password) {
      $('sign-in-error').textContent = 'Enter your account id and password.';
      return;
    }
    try {
      await signIn(id, password);
      $('password').value = '';
      showDashboard();
      $('main').focus();
    } catch (error) {
      $('sign-in-error').textContent = error instanceof ApiError && error.status === 401
          ? 'Wrong account id or password.' : `Could not sign in: ${error.message}`;
    }
  });
  $('sign-out').addEventListener('click', async () => {
    await signOut();
    showSignIn('You are signed out.');
    $('account-id').focus();
  });
  setUpEditor({ say, refresh });
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && session() && !$('dashboard').hidden) {
      refresh();
    }
  });
  setInterval(refreshTimes, 10000);
  if (session()) {
    showDashboard();
  } else {
    showSignIn();
  }
});
