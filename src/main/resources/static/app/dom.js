// Small DOM helpers: elements from data (text only, never HTML strings), times people read, and
// lists that keep their nodes (and so the focus and open <details>) across refreshes.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (name === 'class') {
      node.className = value;
    } else if (name === 'text') {
      node.textContent = value;
    } else if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.substring(2), value);
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** "12 s ago", "in 5 min", or a date: short words for a moment, the exact time on hover and for readers. */
export function relative(iso, now = Date.now()) {
  const at = new Date(iso).getTime();
  const delta = at - now;
  const span = Math.abs(delta);
  let words;
  if (span < 5000) {
    return 'just now';
  } else if (span < MINUTE) {
    words = `${Math.round(span / 1000)} s`;
  } else if (span < HOUR) {
    words = `${Math.round(span / MINUTE)} min`;
  } else if (span < 24 * HOUR) {
    words = `${Math.round(span / HOUR)} h`;
  } else {
    return new Date(iso).toLocaleString();
  }
  return delta < 0 ? `${words} ago` : `in ${words}`;
}

export function when(iso) {
  if (!iso) {
    return el('span', { text: '—' });
  }
  return el('time', { datetime: iso, title: new Date(iso).toLocaleString() }, relative(iso));
}

/**
 * Makes container's children match items, in order, by key: new items are created, kept ones
 * updated in place, gone ones removed. Focus and open disclosures inside kept nodes survive.
 */
export function syncKeyed(container, items, keyOf, create, update) {
  const existing = new Map();
  for (const child of Array.from(container.children)) {
    existing.set(child.dataset.key, child);
  }
  let previous = null;
  for (const item of items) {
    const key = keyOf(item);
    let node = existing.get(key);
    if (node) {
      existing.delete(key);
    } else {
      node = create(item);
      node.dataset.key = key;
    }
    update(node, item);
    const expected = previous ? previous.nextSibling : container.firstChild;
    if (node !== expected) {
      container.insertBefore(node, expected);
    }
    previous = node;
  }
  existing.forEach((node) => node.remove());
}

const shown = new WeakMap();

/** Rebuilds container's content from data only when the data changed since the last time. */
export function renderIfChanged(container, data, build) {
  const signature = JSON.stringify(data);
  if (shown.get(container) === signature) {
    return false;
  }
  shown.set(container, signature);
  container.replaceChildren(...build(data));
  return true;
}
