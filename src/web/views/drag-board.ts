/**
 * What the drag boards share (pgr-board.ts for pick-group-rank, rank-board.ts for rank order): a card
 * made from an item's name, the board put above the question's selects with a hint and a live region,
 * and the drag itself with Pointer Events (mouse, pen and touch alike), which moves a card into a list
 * of the board and to a place in it. The boards only ever set the native selects, which stay the answer
 * the form posts and the keyboard's and screen readers' way; without the script they are all there is.
 * `fwDrag` is defined once in the page's script (assets.ts), before the boards that use it.
 */

export const DRAG_STYLES = `
.drag-list{list-style:none;margin:0;padding:0;min-height:2.75rem;display:flex;flex-direction:column;gap:.5rem}
.drag-card{display:flex;align-items:center;min-height:2.75rem;padding:.25rem .75rem;border:1px solid #1d4ed8;border-radius:.375rem;background:#fff;cursor:grab;touch-action:none;user-select:none;-webkit-user-select:none}
.drag-card p{margin:0}
.drag-card.dragging{position:fixed;z-index:10;margin:0;cursor:grabbing;pointer-events:none;box-shadow:0 4px 12px rgba(0,0,0,.25)}
.drag-holder{border:2px dashed #1d4ed8;border-radius:.375rem}
`;

export const DRAG_SCRIPT = `
var fwDrag = (function () {
  'use strict';
  // A card for the board: a copy of the item's name (no ids, no labels: the board is for the eyes only).
  function card(source) {
    var li = document.createElement('li');
    li.className = 'drag-card';
    var text = document.createElement('span');
    Array.prototype.forEach.call(source.childNodes, function (node) { text.appendChild(node.cloneNode(true)); });
    Array.prototype.forEach.call(text.querySelectorAll('[id]'), function (el) { el.removeAttribute('id'); });
    li.appendChild(text);
    return li;
  }
  // Each item's card (item.card; card.fwItem is the item): its name copied from source(item), the board's
  // own class, dragged with options (see start).
  function cards(items, className, source, options) {
    items.forEach(function (item) {
      var li = card(source(item));
      li.classList.add(className);
      li.fwItem = item;
      li.addEventListener('pointerdown', function (e) { start(li, e, options); });
      item.card = li;
    });
  }
  // The board above the question's selects, hidden from assistive technology, then a hint and the live
  // region that says where a dropped item landed.
  function mount(root, board, hintText) {
    board.setAttribute('aria-hidden', 'true');
    var hint = document.createElement('p');
    hint.className = 'hint';
    hint.textContent = hintText;
    var live = document.createElement('p');
    live.className = 'visually-hidden';
    live.setAttribute('aria-live', 'polite');
    root.insertBefore(live, root.firstChild);
    root.insertBefore(hint, root.firstChild);
    root.insertBefore(board, root.firstChild);
    return live;
  }
  // A drag from a pointerdown on a card. options: board (the element the lists are in), zone (the
  // selector of a drop zone, closest to the point under the pointer), list (the selector of the list in
  // a zone; the zone itself when it matches), done (called once the card is dropped, with the card and
  // whether the pointer moved at all: a tap is no drag).
  function start(card, e, options) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    var box = card.getBoundingClientRect();
    var dx = e.clientX - box.left, dy = e.clientY - box.top;
    var moved = false;
    // The card's slot stays (empty) while it moves, so no list shrinks under the pointer; the holder
    // shows where it will land.
    var spacer = document.createElement('li');
    spacer.style.height = box.height + 'px';
    card.parentNode.insertBefore(spacer, card);
    var holder = document.createElement('li');
    holder.className = 'drag-holder';
    holder.style.height = box.height + 'px';
    card.style.width = box.width + 'px';
    card.classList.add('dragging');
    try { card.setPointerCapture(e.pointerId); } catch (ignored) { /* a pointer already gone */ }
    // The zone under the pointer, and the place in its list: before the first card whose middle is below.
    function place(x, y) {
      var under = document.elementFromPoint(x, y);
      var zone = under && under.closest(options.zone);
      if (!zone || !options.board.contains(zone)) return;
      var list = zone.matches(options.list) ? zone : zone.querySelector(options.list);
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
      if (Math.abs(ev.clientX - e.clientX) + Math.abs(ev.clientY - e.clientY) > 4) moved = true;
      card.style.left = ev.clientX - dx + 'px';
      card.style.top = ev.clientY - dy + 'px';
      // Near the window's edge the page scrolls, so a far place can be reached on a small screen.
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
      options.done(card, moved);
    }
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', end);
    document.addEventListener('pointercancel', end);
    move(e);
  }
  return { cards: cards, mount: mount };
})();
`;
