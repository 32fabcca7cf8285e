/**
 * The survey pages' stylesheet and script, served by Fieldwork itself (no build step, nothing external).
 * The pages work without the script; it only adds conveniences: the slider handle beside each number
 * box, timing of clicks for Timing questions, focus on the error summary, one submit per click, and
 * in-page display logic (a follow-up shown as soon as its condition holds).
 */
import { DRAG_SCRIPT, DRAG_STYLES } from './views/drag-board.js';
import { MAP_SCRIPT, MAP_STYLES } from './views/map-views.js';
import { PGR_SCRIPT, PGR_STYLES } from './views/pgr-board.js';
import { RANK_SCRIPT, RANK_STYLES } from './views/rank-board.js';

export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
html{font-size:100%;-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b1b1b;background:#f4f5f7}
.survey{max-width:46rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
.q{border:0;margin:0 0 1.75rem;padding:0;min-width:0}
.q-text{font-weight:600;margin-bottom:.75rem;padding:0;display:block;width:100%}
.q-text p:first-child,.q-text div:first-child{margin-top:0}
.descriptive{margin:0 0 1.75rem}
.choices{display:flex;flex-direction:column;gap:.5rem}
.choices.horizontal{flex-direction:row;flex-wrap:wrap}
.choice{display:flex;align-items:center;gap:.5rem;min-height:2.75rem;padding:.25rem .5rem;border:1px solid #c9ced6;border-radius:.375rem}
.choice input[type=radio],.choice input[type=checkbox]{width:1.25rem;height:1.25rem;flex:none;margin:0}
.choice label{flex:1;cursor:pointer}
.choice input[type=text]{flex:1 1 10rem}
.nps .choice{min-width:2.75rem;justify-content:center;flex-direction:column;gap:0}
.scale-labels{display:flex;justify-content:space-between;font-size:.875rem;color:#444}
input[type=text],input[type=number],textarea,select{font:inherit;padding:.5rem;border:1px solid #6b7280;border-radius:.375rem;max-width:100%;background:#fff;color:inherit}
input[type=text],textarea{width:100%}
textarea{min-height:8rem}
.field{display:flex;flex-direction:column;gap:.25rem;margin-bottom:.75rem}
.slider{display:flex;align-items:center;gap:.75rem;flex-wrap:wrap}
.slider input[type=range]{flex:1 1 12rem}
.slider input[type=number]{width:6rem}
.slider.bar input[type=range]{height:1.5rem;accent-color:#1d4ed8}
.stars{display:flex;flex-wrap:wrap;gap:.5rem}
.star{display:flex;align-items:center;gap:.25rem;min-height:2.75rem}
.star span[aria-hidden]{color:#8a5a00;font-size:1.25rem}
.na{margin-top:.25rem}
.hint{font-size:.875rem;color:#444;margin:.25rem 0}
.signature canvas{display:block;width:100%;max-width:600px;height:auto;aspect-ratio:3/1;border:1px solid #6b7280;border-radius:.375rem;touch-action:none;background:#fff}
.signature .field{margin-top:.5rem}
table.matrix{border-collapse:collapse;width:100%}
table.matrix th,table.matrix td{padding:.5rem;text-align:center;border-bottom:1px solid #e1e4e8}
table.matrix th[scope=row]{text-align:left;font-weight:400}
table.matrix input{width:1.25rem;height:1.25rem}
table.matrix td.text-cell input,table.matrix td.text-cell textarea{width:100%;min-width:6rem;height:auto;min-height:0}
.cs-item input{width:8rem}
.cs-total{font-weight:600}
.cell-error{display:block;font-size:.875rem;margin:.25rem 0 0}
.profile-row{padding:.5rem 0;border-bottom:1px solid #e1e4e8}
.profile-name{display:block;font-weight:600;margin-bottom:.25rem}
.pgr-item{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;padding:.5rem;border:1px solid #c9ced6;border-radius:.375rem;margin-bottom:.5rem}
.pgr-name{flex:1 1 100%;font-weight:600}
[hidden]{display:none!important}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.error{color:#b00020;font-weight:600;margin:.25rem 0 .5rem}
.q[aria-invalid=true],.q.has-error{border-left:4px solid #b00020;padding-left:.75rem}
.summary{border:3px solid #b00020;padding:.75rem 1rem;margin-bottom:1.5rem}
.summary.requested{border-color:#8a5a00}
.summary h2{font-size:1.125rem;margin:0 0 .5rem}
.progress{display:flex;align-items:center;gap:.5rem;margin-bottom:1rem;font-size:.875rem}
.progress progress{flex:1;height:1rem}
.buttons{display:flex;flex-direction:row-reverse;justify-content:space-between;gap:1rem;margin-top:2rem}
button{font:inherit;min-height:2.75rem;min-width:6rem;padding:.5rem 1.25rem;border-radius:.375rem;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
img{max-width:100%;height:auto}
table:not(.matrix){border-collapse:collapse;margin:.5rem 0;max-width:100%;font-weight:400}
table:not(.matrix) th,table:not(.matrix) td{border:1px solid #c9ced6;padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
table:not(.matrix) th{font-weight:600;background:#f4f5f7}
.fw-block{display:block}
.fw-cell{display:inline-block;margin-right:.75rem}
.fw-align-left{text-align:left}.fw-align-center{text-align:center}.fw-align-right{text-align:right}.fw-align-justify{text-align:justify}
.fw-bold{font-weight:700}.fw-italic{font-style:italic}.fw-underline{text-decoration:underline}.fw-strike{text-decoration:line-through}
.fw-larger{font-size:1.25em}.fw-smaller{font-size:.875em}
@media (max-width:36rem){
 .survey{padding:.75rem}
 .choices.horizontal{flex-direction:column}
 .nps .choices.horizontal{flex-direction:row}
 table.matrix thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
 table.matrix,table.matrix tbody,table.matrix tr,table.matrix th,table.matrix td{display:block;width:100%}
 table.matrix tr{border:1px solid #c9ced6;border-radius:.375rem;margin-bottom:.75rem;padding:.25rem}
 table.matrix th[scope=row]{font-weight:600;border:0}
 table.matrix td{display:flex;align-items:center;gap:.5rem;text-align:left;border:0}
 table.matrix td::before{content:attr(data-label);flex:1;order:2}
}
${MAP_STYLES}${DRAG_STYLES}${PGR_STYLES}${RANK_STYLES}`;

export const SCRIPT = `
(function () {
  'use strict';
  var started = Date.now();
  var first = null, last = null, count = 0;
  function seconds() { return ((Date.now() - started) / 1000).toFixed(3); }
  document.addEventListener('click', function () {
    var s = seconds();
    if (first === null) first = s;
    last = s;
    count += 1;
  });
  // A signature: drawn with a pointer, or a typed name written on the canvas.
  function signaturePad(pad) {
    var canvas = pad.querySelector('canvas');
    var ctx = canvas.getContext('2d');
    var drawing = false;
    ctx.lineWidth = 3; ctx.lineCap = 'round'; ctx.strokeStyle = '#1b1b1b';
    function point(e) {
      var box = canvas.getBoundingClientRect();
      return [(e.clientX - box.left) * canvas.width / box.width, (e.clientY - box.top) * canvas.height / box.height];
    }
    canvas.addEventListener('pointerdown', function (e) {
      drawing = true; pad.fwSigned = true;
      var p = point(e); ctx.beginPath(); ctx.moveTo(p[0], p[1]);
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', function (e) {
      if (!drawing) return;
      var p = point(e); ctx.lineTo(p[0], p[1]); ctx.stroke();
    });
    canvas.addEventListener('pointerup', function () { drawing = false; });
    var typed = pad.querySelector('[data-sign-as]');
    typed.addEventListener('input', function () {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.font = 'italic 48px serif'; ctx.fillStyle = '#1b1b1b';
      ctx.fillText(typed.value, 20, 120);
      pad.fwSigned = typed.value !== '';
    });
    pad.querySelector('[data-clear]').addEventListener('click', function () {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      typed.value = ''; pad.fwSigned = false;
    });
  }
  document.addEventListener('DOMContentLoaded', function () {
    var summary = document.querySelector('.summary');
    if (summary) summary.focus();
    document.querySelectorAll('input[type=range][data-for]').forEach(function (range) {
      var box = document.getElementById(range.getAttribute('data-for'));
      if (!box) return;
      range.hidden = false;
      if (box.value !== '') range.value = box.value;
      range.addEventListener('input', function () { box.value = range.value; });
      box.addEventListener('input', function () { if (box.value !== '') range.value = box.value; });
    });
    document.querySelectorAll('input[data-exclusive]').forEach(function (box) {
      box.addEventListener('change', function () {
        if (!box.checked) return;
        document.querySelectorAll('input[name="' + box.name + '"]').forEach(function (other) {
          if (other !== box) other.checked = false;
        });
      });
    });
    // Constant sum: the total follows the number boxes.
    document.querySelectorAll('output[data-cs-total]').forEach(function (out) {
      var boxes = document.querySelectorAll('input[data-cs="' + out.getAttribute('data-cs-total') + '"]');
      function sum() {
        var total = 0;
        boxes.forEach(function (box) { total += Number(box.value) || 0; });
        out.textContent = String(Math.round(total * 1e6) / 1e6);
      }
      boxes.forEach(function (box) { box.addEventListener('input', sum); });
    });
    var form = document.querySelector('form.page');
    if (!form) return;
    // In-page display logic: show a follow-up as soon as its condition on this page's choices holds.
    var followUps = form.querySelectorAll('[data-fw-when]');
    function chosen(q, v) {
      return Array.prototype.some.call(form.querySelectorAll('[name="' + q + '"]'), function (el) {
        return el.value === v && (el.checked || el.selected || (el.tagName === 'SELECT' && el.value === v));
      });
    }
    function holds(sets) {
      var result = false;
      sets.forEach(function (set, i) {
        var value = false;
        set[1].forEach(function (c, j) {
          var v = chosen(c[1], c[2]) === c[3];
          value = j === 0 ? v : (c[0] === 'or' ? value || v : value && v);
        });
        result = i === 0 ? value : (set[0] === 'or' ? result || value : result && value);
      });
      return result;
    }
    function update() {
      followUps.forEach(function (el) {
        var show = holds(JSON.parse(el.getAttribute('data-fw-when')));
        el.hidden = !show;
        var marker = el.querySelector('input[name=_fw_revealed]');
        if (show && !marker) {
          marker = document.createElement('input');
          marker.type = 'hidden';
          marker.name = '_fw_revealed';
          marker.value = el.getAttribute('data-fw-inpage');
          el.insertBefore(marker, el.firstChild);
        } else if (!show && marker) marker.remove();
      });
    }
    if (followUps.length > 0) {
      form.addEventListener('change', update);
      update();
    }
    var sending = false;
    // A page brought back from the browser's history may be sent again.
    window.addEventListener('pageshow', function () { sending = false; });
    form.addEventListener('submit', function (event) {
      if (sending) { event.preventDefault(); return; }
      sending = true;
      var set = function (name, value) {
        var input = form.querySelector('input[name=' + name + ']');
        if (input) input.value = value;
      };
      set('_fw_first_click', first === null ? '0' : first);
      set('_fw_last_click', last === null ? '0' : last);
      set('_fw_click_count', String(count));
      set('_fw_resolution', window.screen.width + 'x' + window.screen.height);
      form.querySelectorAll('[data-signature]').forEach(function (pad) {
        if (pad.fwSigned) document.getElementById(pad.getAttribute('data-signature')).value = pad.querySelector('canvas').toDataURL('image/png');
      });
    });
    form.querySelectorAll('[data-signature]').forEach(signaturePad);
  });
})();
${MAP_SCRIPT}${DRAG_SCRIPT}${PGR_SCRIPT}${RANK_SCRIPT}`;
