/**
 * Pick, group and rank by dragging (matrix-types.ts draws the question): the page's script adds a board
 * above the items, a "Not placed" zone and one zone per group, whose cards are dragged with Pointer
 * Events (mouse, pen and touch alike) into a group and to a place within it. The board only drives the
 * item's two native selects (its group, its rank in the group), which stay the answer the form posts and
 * the keyboard's and screen readers' way: so the board is hidden from assistive technology, follows the
 * selects when they change, and a drop is announced in a live region. Without the script the selects
 * are all there is.
 */

export const PGR_STYLES = `
.pgr-board{display:flex;flex-wrap:wrap;gap:.75rem;margin-bottom:.5rem}
.pgr-zone{flex:1 1 12rem;min-width:0;padding:.5rem;border:2px dashed #6b7280;border-radius:.375rem;background:#f9fafb}
.pgr-zone-name{margin:0 0 .5rem;font-weight:600}
.pgr-list{list-style:none;margin:0;padding:0;min-height:2.75rem;display:flex;flex-direction:column;gap:.5rem}
.pgr-card{display:flex;align-items:center;min-height:2.75rem;padding:.25rem .75rem;border:1px solid #1d4ed8;border-radius:.375rem;background:#fff;cursor:grab;touch-action:none;user-select:none;-webkit-user-select:none}
.pgr-card p{margin:0}
.pgr-card.dragging{position:fixed;z-index:10;margin:0;cursor:grabbing;pointer-events:none;box-shadow:0 4px 12px rgba(0,0,0,.25)}
.pgr-holder{border:2px dashed #1d4ed8;border-radius:.375rem}
@media (max-width:36rem){.pgr-zone{flex-basis:100%}}
`;

export const PGR_SCRIPT = `
document.addEventListener('DOMContentLoaded', function () {
  function pgrBoard(root) {
    var rows = Array.prototype.slice.call(root.querySelectorAll('.pgr-item'));
    if (rows.length === 0) return;
    var items = rows.map(function (row) {
      return {
        row: row,
        group: row.querySelector('select[name$="_GROUP"]'),
        rank: row.querySelector('select[name$="_RANK"]'),
        card: null
      };
    });
    var board = document.createElement('div');
    board.className = 'pgr-board';
    board.setAttribute('aria-hidden', 'true');
    var zones = {};
    Array.prototype.forEach.call(items[0].group.options, function (option) {
      var zone = document.createElement('div');
      zone.className = 'pgr-zone';
      zone.setAttribute('data-zone', option.value);
      var name = document.createElement('p');
      name.className = 'pgr-zone-name';
      name.textContent = option.textContent;
      var list = document.createElement('ol');
      list.className = 'pgr-list';
      zone.appendChild(name);
      zone.appendChild(list);
      board.appendChild(zone);
      zones[option.value] = list;
    });
    items.forEach(function (item) {
      var card = document.createElement('li');
      card.className = 'pgr-card';
      var text = item.row.querySelector('.pgr-name').cloneNode(true);
      text.removeAttribute('id');
      text.className = '';
      card.appendChild(text);
      card.fwItem = item;
      card.addEventListener('pointerdown', function (e) { drag(card, e); });
      item.card = card;
    });
    var hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = 'Drag the items into the groups and into their order, or choose each item’s group and rank below.';
    var live = document.createElement('p');
    live.className = 'visually-hidden';
    live.setAttribute('aria-live', 'polite');
    root.insertBefore(live, root.firstChild);
    root.insertBefore(hint, root.firstChild);
    root.insertBefore(board, root.firstChild);

    // The board from the selects: each item in its group, by the rank given, else in the page's order.
    function render() {
      var order = function (item, i) { return [Number(item.rank.value) || Infinity, i]; };
      Object.keys(zones).forEach(function (zone) {
        items
          .map(function (item, i) { return { item: item, key: order(item, i) }; })
          .filter(function (entry) { return (zones[entry.item.group.value] ? entry.item.group.value : '') === zone; })
          .sort(function (a, b) { return a.key[0] - b.key[0] || a.key[1] - b.key[1]; })
          .forEach(function (entry) { zones[zone].appendChild(entry.item.card); });
      });
    }
    // The selects from the board: every item's group, and its place in the group as its rank.
    function write() {
      Object.keys(zones).forEach(function (zone) {
        Array.prototype.forEach.call(zones[zone].children, function (card, i) {
          card.fwItem.group.value = zone;
          card.fwItem.rank.value = zone === '' ? '' : String(i + 1);
        });
      });
    }
    function announce(card) {
      var list = card.parentNode;
      var zone = list.parentNode.getAttribute('data-zone');
      var name = card.textContent.trim();
      live.textContent = zone === ''
        ? name + ': not placed.'
        : name + ': ' + list.parentNode.firstChild.textContent + ', ' + (Array.prototype.indexOf.call(list.children, card) + 1) + ' of ' + list.children.length + '.';
    }
    function drag(card, e) {
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      e.preventDefault();
      var box = card.getBoundingClientRect();
      var dx = e.clientX - box.left, dy = e.clientY - box.top;
      // The card's slot stays (empty) while it moves, so no zone shrinks under the pointer; the holder
      // shows where it will land.
      var spacer = document.createElement('li');
      spacer.style.height = box.height + 'px';
      card.parentNode.insertBefore(spacer, card);
      var holder = document.createElement('li');
      holder.className = 'pgr-holder';
      holder.style.height = box.height + 'px';
      card.style.width = box.width + 'px';
      card.classList.add('dragging');
      try { card.setPointerCapture(e.pointerId); } catch (ignored) { /* a pointer already gone */ }
      // The zone under the pointer, and the place in it: before the first card whose middle is below.
      function place(x, y) {
        var under = document.elementFromPoint(x, y);
        var zone = under && under.closest('.pgr-zone');
        if (!zone || !board.contains(zone)) return;
        var list = zone.querySelector('.pgr-list');
        var before = null;
        Array.prototype.some.call(list.children, function (other) {
          if (other === holder || other === card || other === spacer) return false;
          var r = other.getBoundingClientRect();
          if (y < r.top + r.height / 2) { before = other; return true; }
          return false;
        });
        if (holder.parentNode !== list || holder.nextSibling !== before) list.insertBefore(holder, before);
      }
      function move(ev) {
        if (ev.pointerId !== e.pointerId) return;
        card.style.left = ev.clientX - dx + 'px';
        card.style.top = ev.clientY - dy + 'px';
        // Near the window's edge the page scrolls, so a far group can be reached on a small screen.
        if (ev.clientY < 40) window.scrollBy(0, -12);
        else if (ev.clientY > window.innerHeight - 40) window.scrollBy(0, 12);
        place(ev.clientX, ev.clientY);
      }
      function end(ev) {
        if (ev.pointerId !== e.pointerId) return;
        document.removeEventListener('pointermove', move);
        document.removeEventListener('pointerup', end);
        document.removeEventListener('pointercancel', end);
        // Dropped outside every zone before reaching one: back to its slot.
        var slot = holder.parentNode ? holder : spacer;
        slot.parentNode.replaceChild(card, slot);
        if (spacer.parentNode) spacer.parentNode.removeChild(spacer);
        card.classList.remove('dragging');
        card.style.left = card.style.top = card.style.width = '';
        write();
        card.fwItem.group.dispatchEvent(new Event('change', { bubbles: true }));
        announce(card);
      }
      document.addEventListener('pointermove', move);
      document.addEventListener('pointerup', end);
      document.addEventListener('pointercancel', end);
      move(e);
    }
    items.forEach(function (item) {
      item.group.addEventListener('change', render);
      item.rank.addEventListener('change', render);
    });
    render();
  }
  document.querySelectorAll('.pgr').forEach(pgrBoard);
});
`;
