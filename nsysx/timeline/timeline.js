// nsysx timeline: an interactive canvas view of a View's data, with no
// dependencies. Wheel: zoom around the pointer; drag: pan; hover: details and
// flow arrows from a CUDA API call to its GPU work; double-click: reset.
function nsysxTimeline(root, d) {
  "use strict";
  var KIND = ["", "CUDA API", "kernel", "memcpy", "memset", "NVTX", "NVTX", "NVTX mark", "OS runtime", "CUDA graph"];
  var KCOL = ["#999", "#7a9a5a", "#4c78a8", "#f58518", "#72b7b2", "#9ecae9", "#d4a6c8", "#e45756", "#bab0ac", "#2a4a73"];
  var LANE = 16, GUTTER = 230, AXIS = 22, FONT = "11px sans-serif";
  var ev = d.ev, nE = ev.length / 7, tracks = d.tracks;
  var rowY = [], y = AXIS, lastProc = null, heads = [];
  for (var t = 0; t < tracks.length; t++) {
    if (tracks[t][0] !== lastProc) { heads.push([y, tracks[t][0]]); y += LANE; lastProc = tracks[t][0]; }
    rowY.push(y); y += LANE * Math.max(1, tracks[t][3]) + 3;
  }
  var H = y + 4, W = Math.max(600, (root.clientWidth || 900));
  var t0 = 0, t1 = Math.max(1, d.span), v0 = t0, v1 = t1;
  var flowsFrom = {};
  for (var i = 0; i < d.flows.length; i += 2) {
    (flowsFrom[d.flows[i]] = flowsFrom[d.flows[i]] || []).push(d.flows[i + 1]);
  }
  root.innerHTML = "";
  var info = document.createElement("div");
  info.style.font = "12px sans-serif"; info.style.margin = "2px 0 4px 0";
  info.textContent = d.title + " \u2014 " + d.window + (d.note ? " \u2014 " + d.note : "") +
    "  (wheel: zoom, drag: pan, double-click: reset)";
  var wrap = document.createElement("div");
  wrap.style.position = "relative"; wrap.style.overflowY = "auto"; wrap.style.maxHeight = "640px";
  var cv = document.createElement("canvas");
  var tip = document.createElement("div");
  tip.style.cssText = "position:absolute;display:none;pointer-events:none;background:#fff;border:1px solid #888;" +
    "padding:3px 6px;font:11px sans-serif;white-space:pre;max-width:520px;overflow:hidden;z-index:10";
  wrap.appendChild(cv); wrap.appendChild(tip);
  root.appendChild(info); root.appendChild(wrap);
  var dpr = window.devicePixelRatio || 1;
  cv.width = W * dpr; cv.height = H * dpr; cv.style.width = W + "px"; cv.style.height = H + "px";
  var g = cv.getContext("2d");
  g.scale(dpr, dpr);
  var hover = -1;

  function hash(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return h >>> 0; }
  function colour(k) {
    var c = ev[k * 7 + 6], kind = ev[k * 7 + 5];
    if (c >= 0) { return "#" + ("00000" + c.toString(16)).slice(-6); }
    if (kind === 2 || kind >= 5 && kind <= 6) {
      var h = hash(d.names[ev[k * 7 + 4]]);
      return "hsl(" + (h % 360) + "," + (kind === 2 ? 45 : 60) + "%," + (kind === 2 ? 48 : 72) + "%)";
    }
    return KCOL[kind];
  }
  function xOf(t) { return GUTTER + (t - v0) / (v1 - v0) * (W - GUTTER - 8); }
  function tOf(x) { return v0 + (x - GUTTER) / (W - GUTTER - 8) * (v1 - v0); }
  function fmt(ns) {
    var a = Math.abs(ns);
    if (a >= 1e9) { return (ns / 1e9).toFixed(3) + " s"; }
    if (a >= 1e6) { return (ns / 1e6).toFixed(3) + " ms"; }
    if (a >= 1e3) { return (ns / 1e3).toFixed(3) + " \u00b5s"; }
    return ns + " ns";
  }
  function axis() {
    var span = v1 - v0, step = Math.pow(10, Math.floor(Math.log10(span / 8)));
    if (span / step > 16) { step *= 5; } else if (span / step > 8) { step *= 2; }
    g.fillStyle = "#222"; g.font = FONT; g.strokeStyle = "#eee";
    var off = d.t0 - d.origin;
    for (var t = Math.ceil((v0 + off) / step) * step - off; t <= v1; t += step) {
      var x = xOf(t);
      g.beginPath(); g.moveTo(x, AXIS - 4); g.lineTo(x, H); g.stroke();
      g.fillText(fmt(t + d.t0 - d.origin), x + 2, 12);
    }
  }
  function draw() {
    g.clearRect(0, 0, W, H);
    g.fillStyle = "#fff"; g.fillRect(0, 0, W, H);
    axis();
    g.font = FONT;
    for (var h = 0; h < heads.length; h++) {
      g.fillStyle = "#f3f3f3"; g.fillRect(0, heads[h][0], W, LANE);
      g.fillStyle = "#222"; g.fillText(heads[h][1], 4, heads[h][0] + 12);
    }
    for (var t = 0; t < tracks.length; t++) {
      g.fillStyle = "#444"; g.fillText(tracks[t][1].slice(0, 36), 12, rowY[t] + 12);
    }
    var lastX = {}, minW = 0.5;
    for (var k = 0; k < nE; k++) {
      var s = ev[k * 7 + 2], e = s + ev[k * 7 + 3];
      if (e < v0 || s > v1) { continue; }
      var x0 = Math.max(GUTTER, xOf(s)), x1 = Math.min(W - 8, xOf(e)), w = Math.max(minW, x1 - x0);
      var row = rowY[ev[k * 7]] + ev[k * 7 + 1] * LANE, key = row;
      if (w < 1 && lastX[key] !== undefined && x0 - lastX[key] < 1) { continue; } // sub-pixel: one per pixel
      lastX[key] = x0;
      g.fillStyle = colour(k);
      if (ev[k * 7 + 5] === 7) { g.fillRect(x0 - 1, row + 1, 3, LANE - 2); continue; }
      g.fillRect(x0, row + 1, w, LANE - 2);
      if (w > 30) {
        g.save(); g.beginPath(); g.rect(x0, row, w, LANE); g.clip();
        g.fillStyle = "#111"; g.fillText(d.names[ev[k * 7 + 4]], x0 + 2, row + 12); g.restore();
      }
    }
    if (hover >= 0) { outline(hover); arrows(hover); }
  }
  function rect(k) {
    var s = ev[k * 7 + 2], row = rowY[ev[k * 7]] + ev[k * 7 + 1] * LANE;
    return [Math.max(GUTTER, xOf(s)), row, Math.max(2, xOf(s + ev[k * 7 + 3]) - xOf(s)), LANE];
  }
  function outline(k) { var r = rect(k); g.strokeStyle = "#000"; g.lineWidth = 1.5; g.strokeRect(r[0], r[1] + 0.5, r[2], r[3] - 1); g.lineWidth = 1; }
  function arrows(k) {
    var to = flowsFrom[k] || [];
    var from = rect(k);
    g.strokeStyle = "#d62728";
    for (var i = 0; i < to.length; i++) {
      var r = rect(to[i]);
      g.beginPath(); g.moveTo(from[0], from[1] + LANE / 2); g.lineTo(r[0], r[1] + LANE / 2); g.stroke();
      g.fillStyle = "#d62728"; g.fillRect(r[0] - 2, r[1] + LANE / 2 - 2, 4, 4);
    }
  }
  function at(x, yy) {
    var t = tOf(x), best = -1;
    for (var k = 0; k < nE; k++) {
      var row = rowY[ev[k * 7]] + ev[k * 7 + 1] * LANE;
      if (yy < row || yy > row + LANE) { continue; }
      var s = ev[k * 7 + 2], e = s + ev[k * 7 + 3], slack = (v1 - v0) / W * 2;
      if (t >= s - slack && t <= e + slack) { best = k; if (t >= s && t <= e) { break; } }
    }
    return best;
  }
  var drag = null;
  cv.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = cv.getBoundingClientRect(), t = tOf(e.clientX - r.left), f = Math.exp(e.deltaY * 0.002);
    var n0 = t - (t - v0) * f, n1 = t + (v1 - t) * f;
    if (n1 - n0 < 100) { return; }
    v0 = Math.max(t0 - (t1 - t0), n0); v1 = Math.min(t1 + (t1 - t0), n1); draw();
  }, { passive: false });
  cv.addEventListener("mousedown", function (e) { drag = [e.clientX, v0, v1]; });
  window.addEventListener("mouseup", function () { drag = null; });
  cv.addEventListener("mousemove", function (e) {
    var r = cv.getBoundingClientRect(), x = e.clientX - r.left, yy = e.clientY - r.top;
    if (drag) {
      var dt = (drag[0] - e.clientX) / (W - GUTTER - 8) * (drag[2] - drag[1]);
      v0 = drag[1] + dt; v1 = drag[2] + dt; draw(); return;
    }
    var k = at(x, yy);
    if (k !== hover) { hover = k; draw(); }
    if (k < 0) { tip.style.display = "none"; return; }
    var kind = ev[k * 7 + 5], extra = d.domains[k] ? "\ndomain: " + d.domains[k] : "";
    tip.textContent = d.names[ev[k * 7 + 4]] + "\n" + KIND[kind] + " \u2014 " + tracks[ev[k * 7]][1] + "\nstart " +
      fmt(ev[k * 7 + 2] + d.t0 - d.origin) + ", duration " + fmt(ev[k * 7 + 3]) + extra +
      ((flowsFrom[k] || []).length ? "\nlaunched " + flowsFrom[k].length + " GPU operation(s) (red)" : "");
    tip.style.display = "block";
    tip.style.left = Math.min(x + 12, W - 300) + "px"; tip.style.top = (yy + 14) + "px";
  });
  cv.addEventListener("mouseleave", function () { hover = -1; tip.style.display = "none"; draw(); });
  cv.addEventListener("dblclick", function () { v0 = t0; v1 = t1; draw(); });
  draw();
  return { draw: draw, events: nE };
}
