// The application status bar: a row of items the user can reorder (drag
// and drop, or Alt+←/→ on a focused item), the order kept in this browser.
// The LSP item is one of them; what it shows is the status control's.
// The items keep their own roles (the LSP item is a button): the bar is a
// labelled landmark holding them in order, not a list.
// @ts-check

const ORDER_KEY = 'kandev.demo.statusBar.order';

/**
 * @param {{ items: Record<string, HTMLElement>, t: (key: string) => string }} parts
 */
export function createStatusBar({ items, t }) {
  // Both are in index.html.
  const bar = /** @type {HTMLElement} */ (document.getElementById('status-bar'));
  const row = /** @type {HTMLElement} */ (document.getElementById('status-bar-items'));
  const byName = new Map(Object.entries(items));
  for (const [name, el] of byName) {
    el.classList.add('sb-item');
    el.dataset.item = name;
    el.draggable = true;
    if (el.tagName !== 'BUTTON') el.tabIndex = 0; // reorderable from the keyboard too
  }

  function saved() {
    try {
      const order = JSON.parse(localStorage.getItem(ORDER_KEY) || '[]');
      return Array.isArray(order) ? order : [];
    } catch {
      return [];
    }
  }

  // arrange puts the items in the saved order; items the order does not
  // know keep their default place after the known ones.
  function arrange(/** @type {string[]} */ order) {
    const names = [...order.filter((n) => byName.has(n)), ...[...byName.keys()].filter((n) => !order.includes(n))];
    row.replaceChildren(.../** @type {HTMLElement[]} */ (names.map((n) => byName.get(n))));
  }

  /** @returns {string[]} */
  function current() { return [...row.children].map((el) => /** @type {string} */ (/** @type {HTMLElement} */ (el).dataset.item)); }

  /** @param {string} name @param {number} to */
  function move(name, to) {
    const order = current().filter((n) => n !== name);
    order.splice(Math.max(0, Math.min(to, order.length)), 0, name);
    localStorage.setItem(ORDER_KEY, JSON.stringify(order));
    arrange(order);
  }

  /** @type {string | null} */
  let dragged = null;
  // The items' events: their targets are elements of the row.
  const itemOf = (/** @type {Event} */ e) => /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('.sb-item'));
  row.addEventListener('dragstart', (e) => {
    const el = itemOf(e);
    if (!el || !e.dataTransfer) return;
    dragged = /** @type {string} */ (el.dataset.item);
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', dragged);
  });
  row.addEventListener('dragover', (e) => {
    if (dragged) e.preventDefault();
  });
  row.addEventListener('drop', (e) => {
    e.preventDefault();
    const target = itemOf(e);
    if (!dragged || !target || target.dataset.item === dragged) return;
    const r = target.getBoundingClientRect();
    const names = current().filter((n) => n !== dragged);
    let at = names.indexOf(/** @type {string} */ (target.dataset.item));
    if (e.clientX > r.left + r.width / 2) at++;
    move(dragged, at);
    byName.get(dragged)?.focus(); // dragged names an item
  });
  row.addEventListener('dragend', () => { dragged = null; });
  row.addEventListener('keydown', (e) => {
    const el = itemOf(e);
    if (!el || !e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    e.preventDefault();
    const name = /** @type {string} */ (el.dataset.item);
    const at = current().indexOf(name) + (e.key === 'ArrowLeft' ? -1 : 1);
    move(name, at);
    el.focus();
  });

  arrange(saved());

  return {
    setShown(/** @type {boolean} */ on) { bar.hidden = !on; },
    get shown() { return !bar.hidden; },
    order: current,
    retitle() {
      bar.setAttribute('aria-label', t('page.statusBar'));
      for (const el of byName.values()) {
        if (el.tagName !== 'BUTTON') el.title = t('page.statusBar.move');
      }
    },
  };
}
