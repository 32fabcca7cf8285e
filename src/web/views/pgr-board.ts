/**
 * Pick, group and rank by dragging (matrix-types.ts draws the question): the page's script adds a board
 * above the items, a "Not placed" zone and one zone per group, whose cards are dragged with Pointer
 * Events (mouse, pen and touch alike; the drag is drag-board.ts's) into a group and to a place within
 * it. The board only drives the item's two native selects (its group, its rank in the group), which stay
 * the answer the form posts and the keyboard's and screen readers' way: so the board is hidden from
 * assistive technology, follows the selects when they change, and a drop is announced in a live region.
 * Without the script the selects are all there is.
 */

export const PGR_STYLES = `
.pgr-board{display:flex;flex-wrap:wrap;gap:.75rem;margin-bottom:.5rem}
.pgr-zone{flex:1 1 12rem;min-width:0;padding:.5rem;border:2px dashed #6b7280;border-radius:.375rem;background:#f9fafb}
.pgr-zone-name{margin:0 0 .5rem;font-weight:600}
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
    var zones = {};
    Array.prototype.forEach.call(items[0].group.options, function (option) {
      var zone = document.createElement('div');
      zone.className = 'pgr-zone';
      zone.setAttribute('data-zone', option.value);
      var name = document.createElement('p');
      name.className = 'pgr-zone-name';
      name.textContent = option.textContent;
      var list = document.createElement('ol');
      list.className = 'drag-list pgr-list';
      zone.appendChild(name);
      zone.appendChild(list);
      board.appendChild(zone);
      zones[option.value] = list;
    });
    var drag = { board: board, zone: '.pgr-zone', list: '.pgr-list', done: dropped };
    fwDrag.cards(items, 'pgr-card', function (item) { return item.row.querySelector('.pgr-name'); }, drag);
    var live = fwDrag.mount(root, board, 'Drag the items into the groups and into their order, or choose each item’s group and rank below.');

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
    function dropped(card) {
      write();
      card.fwItem.group.dispatchEvent(new Event('change', { bubbles: true }));
      announce(card);
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
