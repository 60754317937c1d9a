// The platform's REST API as the page uses it: the signed-in token on every call, problem+json
// turned into an ApiError that keeps the problem (its type, detail and any validation errors).

const TOKEN_KEY = 'ringzero.token';
const ACCOUNT_KEY = 'ringzero.account';

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }

  get slug() {
    const type = this.problem.type || '';
    return type.substring(type.lastIndexOf('/') + 1);
  }
}

export function session() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const account = sessionStorage.getItem(ACCOUNT_KEY);
  return token ? { token, account: account ? JSON.parse(account) : null } : null;
}

async function call(method, path, body, token) {
  const headers = { Accept: 'application/json' };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body)),
    cache: 'no-store',
    credentials: 'omit',
  });
  if (response.status === 204) {
    return null;
  }
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch (e) {
    parsed = { detail: text };
  }
  if (!response.ok) {
    throw new ApiError(response.status, parsed);
  }
  return parsed;
}

export async function signIn(id, password) {
  const answer = await call('POST', '/api/v1/sign-in', { id, password });
  sessionStorage.setItem(TOKEN_KEY, answer.token);
  sessionStorage.setItem(ACCOUNT_KEY, JSON.stringify({ id: answer.accountId, role: answer.role }));
  return answer;
}

export async function signOut() {
  const current = session();
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(ACCOUNT_KEY);
  if (current) {
    try {
      await call('POST', '/api/v1/sign-out', undefined, current.token);
    } catch (e) {
      // the token is forgotten here either way
    }
  }
}

function authed(method, path, body) {
  const current = session();
  return call(method, path, body, current ? current.token : null);
}

export const api = {
  gadgets: () => authed('GET', '/api/v1/gadgets'),
  agents: () => authed('GET', '/api/v1/gadget-agents'),
  runs: (agentId) => authed('GET', `/api/v1/gadget-agents/${encodeURIComponent(agentId)}/runs?limit=5&actions=true`),
  decisions: (agentId) => authed('GET', `/api/v1/gadget-agents/${encodeURIComponent(agentId)}/decisions?limit=10`),
  enable: (agentId, on) => authed('POST', `/api/v1/gadget-agents/${encodeURIComponent(agentId)}/${on ? 'enable' : 'disable'}`),
  runNow: (agentId) => authed('POST', `/api/v1/gadget-agents/${encodeURIComponent(agentId)}/runs`, {}),
  pendingGates: () => authed('GET', '/api/v1/gates?state=pending'),
  inbox: () => authed('GET', '/api/v1/inbox?limit=20'),
  audit: () => authed('GET', '/api/v1/audit?limit=20'),
  draft: (text) => authed('POST', '/api/v1/gadget-agents/drafts', { text }),
  dryRun: (definitionText) => authed('POST', '/api/v1/gadget-agents/dry-run', definitionText),
  create: (definitionText) => authed('POST', '/api/v1/gadget-agents', definitionText),
  revise: (agentId, definitionText) => authed('PUT', `/api/v1/gadget-agents/${encodeURIComponent(agentId)}`, definitionText),
};
