// The application status bar: a row of items the user can reorder (drag
// and drop, or Alt+←/→ on a focused item), the order kept in this browser.
// The LSP item is one of them; what it shows is the status control's.

const ORDER_KEY = 'kandev.demo.statusBar.order';

export function createStatusBar({ items, t }) {
  const bar = document.getElementById('status-bar');
  const row = document.getElementById('status-bar-items');
  const byName = new Map(Object.entries(items));
  for (const [name, el] of byName) {
    el.classList.add('sb-item');
    el.dataset.item = name;
    el.setAttribute('role', 'listitem');
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
  function arrange(order) {
    const names = [...order.filter((n) => byName.has(n)), ...[...byName.keys()].filter((n) => !order.includes(n))];
    row.replaceChildren(...names.map((n) => byName.get(n)));
  }

  function current() { return [...row.children].map((el) => el.dataset.item); }

  function move(name, to) {
    const order = current().filter((n) => n !== name);
    order.splice(Math.max(0, Math.min(to, order.length)), 0, name);
    localStorage.setItem(ORDER_KEY, JSON.stringify(order));
    arrange(order);
  }

  let dragged = null;
  row.addEventListener('dragstart', (e) => {
    const el = e.target.closest('.sb-item');
    if (!el) return;
    dragged = el.dataset.item;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', dragged);
  });
  row.addEventListener('dragover', (e) => {
    if (dragged) e.preventDefault();
  });
  row.addEventListener('drop', (e) => {
    e.preventDefault();
    const target = e.target.closest('.sb-item');
    if (!dragged || !target || target.dataset.item === dragged) return;
    const r = target.getBoundingClientRect();
    const names = current().filter((n) => n !== dragged);
    let at = names.indexOf(target.dataset.item);
    if (e.clientX > r.left + r.width / 2) at++;
    move(dragged, at);
    byName.get(dragged).focus();
  });
  row.addEventListener('dragend', () => { dragged = null; });
  row.addEventListener('keydown', (e) => {
    const el = e.target.closest('.sb-item');
    if (!el || !e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    e.preventDefault();
    const at = current().indexOf(el.dataset.item) + (e.key === 'ArrowLeft' ? -1 : 1);
    move(el.dataset.item, at);
    el.focus();
  });

  arrange(saved());

  return {
    setShown(on) { bar.hidden = !on; },
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
