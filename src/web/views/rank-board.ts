/**
 * Rank order by dragging (`RO` with `Selector: DND`; question-views.ts draws the items, each a select of
 * ranks, in a `.rank-dnd`): the page's script adds a list above them whose cards are dragged into the
 * respondent's order with Pointer Events (mouse, pen and touch; the drag is drag-board.ts's). A drop
 * writes every item's select with its place in the list (1..n) and fires `change`; the selects stay the
 * answer the form posts and the keyboard's and screen readers' way, so the list is hidden from assistive
 * technology, follows the selects when they change, and a drop is announced in a live region. Without
 * the script the selects are all there is.
 */

export const RANK_STYLES = `
.rank-board{padding:.5rem;margin-bottom:.5rem;border:2px dashed #6b7280;border-radius:.375rem;background:#f9fafb}
`;

export const RANK_SCRIPT = `
document.addEventListener('DOMContentLoaded', function () {
  function rankBoard(root) {
    var items = [];
    Array.prototype.forEach.call(root.querySelectorAll('.field'), function (field) {
      var label = field.querySelector('label');
      var rank = field.querySelector('select');
      if (label && rank) items.push({ label: label, rank: rank, card: null });
    });
    if (items.length === 0) return;
    var board = document.createElement('div');
    board.className = 'rank-board';
    var list = document.createElement('ol');
    list.className = 'drag-list rank-list';
    board.appendChild(list);
    var drag = { board: board, zone: '.rank-board', list: '.rank-list', done: dropped };
    fwDrag.cards(items, 'rank-card', function (item) { return item.label; }, drag);
    var live = fwDrag.mount(root, board, 'Drag the items into your order, the first at the top, or choose each item’s rank below.');

    // The list from the selects: by the rank given, else in the page's order.
    function render() {
      items
        .map(function (item, i) { return { item: item, key: [Number(item.rank.value) || Infinity, i] }; })
        .sort(function (a, b) { return a.key[0] - b.key[0] || a.key[1] - b.key[1]; })
        .forEach(function (entry) { list.appendChild(entry.item.card); });
    }
    // The selects from the list: each item's place as its rank; then a change from each select changed.
    // A tap on a card ranks nothing.
    function dropped(card, moved) {
      if (!moved) return;
      var changed = [];
      Array.prototype.forEach.call(list.children, function (other, i) {
        var rank = other.fwItem.rank;
        if (rank.value !== String(i + 1)) { rank.value = String(i + 1); changed.push(rank); }
      });
      changed.forEach(function (rank) { rank.dispatchEvent(new Event('change', { bubbles: true })); });
      live.textContent = card.textContent.trim() + ': ' + (Array.prototype.indexOf.call(list.children, card) + 1) + ' of ' + list.children.length + '.';
    }
    items.forEach(function (item) { item.rank.addEventListener('change', render); });
    render();
  }
  document.querySelectorAll('.rank-dnd').forEach(rankBoard);
});
`;
