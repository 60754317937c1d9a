// The definition editor: a textarea of JSON, the platform's validation errors listed by their
// path, a dry run (no hardware effect, nothing stored) and saving as a new agent or a new revision.

import { api, ApiError } from './api.js';
import { el } from './dom.js';

const $ = (id) => document.getElementById(id);
let agents = [];
let gadgets = [];
let hooks = { say: () => {}, refresh: () => {} };

export function updateEditorAgents(latestAgents, latestGadgets) {
  agents = latestAgents;
  gadgets = latestGadgets;
  const select = $('definition-target');
  const chosen = select.value;
  const wanted = [['', 'New agent'], ...agents.map((agent) => [agent.id, agent.name])];
  const current = Array.from(select.options).map((option) => [option.value, option.textContent]);
  if (JSON.stringify(wanted) !== JSON.stringify(current)) {
    select.replaceChildren(...wanted.map(([value, text]) => el('option', { value, text })));
    select.value = wanted.some(([value]) => value === chosen) ? chosen : '';
  }
}

function example() {
  const gadget = gadgets.length ? gadgets[0].id : 'desk-1';
  return {
    apiVersion: 'ringzero/v1',
    name: 'Bark when shaken',
    gadgets: [gadget],
    kind: 'rules',
    triggers: [{ kind: 'gadget.event', gadget, event: 'shaken', when: { data: { strength: 'hard' } } }],
    actions: [{ gadget, command: 'speaker.play_url', params: { url: 'https://example.org/bark.mp3' } }],
    allow: { commands: ['speaker.play_url'] },
  };
}

function showErrors(title, errors) {
  const box = $('definition-errors');
  if (!title) {
    box.replaceChildren();
    $('definition').removeAttribute('aria-invalid');
    return;
  }
  $('definition').setAttribute('aria-invalid', 'true');
  box.replaceChildren(el('p', { text: title }),
      errors.length ? el('ul', { class: 'violations' }, errors.map((error) => el('li', { class: 'violation',
        'data-path': error.path || '' }, el('code', { text: error.path || '(whole definition)' }), ' ',
      error.message || error.code || ''))) : '');
}

/** The textarea's JSON, or null after listing why it is not JSON. */
function parsed() {
  const text = $('definition').value;
  if (!text.trim()) {
    showErrors('The definition is empty.', []);
    return null;
  }
  try {
    JSON.parse(text);
    return text;
  } catch (error) {
    showErrors('This is not JSON yet.', [{ path: '(syntax)', message: error.message }]);
    return null;
  }
}

function refusal(error) {
  if (error instanceof ApiError && Array.isArray(error.problem.errors)) {
    showErrors(error.message, error.problem.errors);
  } else if (error instanceof ApiError && error.problem.field) {
    showErrors(error.message, [{ path: error.problem.field, message: error.message }]);
  } else {
    showErrors(error.message, []);
  }
}

function verdictText(verdict) {
  if (!verdict) {
    return '';
  }
  return verdict.verdict + (verdict.reason ? ` (${verdict.reason})` : '') + (verdict.detail ? `: ${verdict.detail}` : '');
}

function showReport(report) {
  const match = report.match || {};
  const rows = [
    el('h3', { text: 'Dry run (nothing was sent to any gadget)' }),
    el('p', { class: 'dry-run-match' }, match.matched ? 'The trigger matches.' : 'The trigger does not match.',
        match.detail ? ` ${match.detail}` : ''),
    el('p', { class: 'dry-run-admission' }, 'Admission: ', verdictText(report.admission)),
  ];
  const actions = report.actions || [];
  rows.push(actions.length
    ? el('ol', { class: 'dry-run-actions' }, actions.map((action) => el('li', {},
        el('code', { text: action.command }), action.gadget ? ` on ${action.gadget}` : '', ' → ',
        verdictText(action.verdict), action.outcome ? ` · ${action.outcome}` : '')))
    : el('p', { text: 'No actions.' }));
  $('editor-result').replaceChildren(...rows);
}

export function setUpEditor(callbacks) {
  hooks = callbacks;
  $('definition-target').addEventListener('change', () => {
    const agent = agents.find((candidate) => candidate.id === $('definition-target').value);
    $('definition').value = agent ? JSON.stringify(agent.spec, null, 2) : '';
    showErrors(null);
    $('editor-result').replaceChildren();
  });
  $('template').addEventListener('click', () => {
    $('definition').value = JSON.stringify(example(), null, 2);
    showErrors(null);
    $('definition').focus();
  });
  $('draft').addEventListener('click', async () => {
    const text = $('description').value.trim();
    showErrors(null);
    $('editor-result').replaceChildren();
    if (!text) {
      showErrors('Say first what the agent should do.', []);
      $('description').focus();
      return;
    }
    const button = $('draft');
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    $('editor-result').replaceChildren(el('p', { text: 'The model is drafting…' }));
    try {
      const draft = await api.draft(text);
      $('definition').value = JSON.stringify(draft.definition, null, 2);
      $('editor-result').replaceChildren();
      if (draft.valid) {
        if (draft.dryRun) {
          showReport(draft.dryRun);
        }
        $('editor-result').prepend(el('p', { class: 'drafted',
          text: `Drafted in ${draft.attempts} attempt(s): check it, dry-run it, save it.` }));
      } else {
        showErrors(`The model’s draft still has problems after ${draft.attempts} attempt(s).`, draft.violations || []);
      }
      $('definition').focus();
    } catch (error) {
      $('editor-result').replaceChildren();
      refusal(error);
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  });
  $('dry-run').addEventListener('click', async () => {
    showErrors(null);
    $('editor-result').replaceChildren();
    const text = parsed();
    if (text === null) {
      return;
    }
    try {
      showReport(await api.dryRun(text));
    } catch (error) {
      refusal(error);
    }
  });
  $('definition-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    showErrors(null);
    $('editor-result').replaceChildren();
    const text = parsed();
    if (text === null) {
      return;
    }
    const target = $('definition-target').value;
    try {
      const saved = target ? await api.revise(target, text) : await api.create(text);
      $('editor-result').replaceChildren(el('p', { class: 'saved',
        text: `Saved “${saved.name}” as revision ${saved.revision}.` }));
      hooks.say(`Saved ${saved.name}.`);
      await hooks.refresh();
      $('definition-target').value = saved.id;
    } catch (error) {
      refusal(error);
    }
  });
}
