/// The script of the timeline page: draws the axis, lanes and bars from the embedded data; zooms (drag or wheel
/// over the axis, a reset button); draws long idle gaps as breaks; places each label inside its bar, beside it or
/// only in the tooltip, whichever fits whole; and lists the actions in a table that sorts and filters.
///
/// The page reads its starting view from the address: `?zoom=busy` or `?zoom=FROM-TO` (milliseconds from the
/// first start), `gaps=off`, `session=`, `queue=`, `feature=`, `failed=1`, `sort=start|duration` and
/// `order=asc|desc`; `#request-N` selects an action. Zooming and filtering write the view back to the address.
enum TimelinePageScript {
    static let source = #"""
        "use strict";
        (function () {
          var started = window.performance.now();
          var body = document.body;
          var status = document.getElementById("render-status");
          window.addEventListener("error", function (event) {
            body.setAttribute("data-render", "error");
            status.textContent = "Script error: " + event.message;
          });
          var data = JSON.parse(document.getElementById("timeline-data").textContent);
          var chart = document.getElementById("chart");
          var tooltip = document.getElementById("tooltip");
          var details = document.getElementById("details");
          var rowHeight = 24;
          var barHeight = 20;
          var labelWidth = 240;

          function element(tag, className, text) {
            var node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined) node.textContent = text;
            return node;
          }

          // Time text. `step` (ns) sets the precision, so neighbouring ticks differ in their last digit.
          function formatTime(ns, step) {
            step = step || Math.abs(ns) / 100 || 1;
            var units = [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]];
            var scale = Math.max(Math.abs(ns), step);
            var unit = units.filter(function (u) { return scale >= u[0]; })[0] || units[3];
            if (ns === 0) return "0";
            var digits = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step / unit[0]) - 1e-9)));
            return +(ns / unit[0]).toFixed(digits) + " " + unit[1];
          }

          // ---- The scale: time (ns from the first start) to display units, with or without breaks. ----
          var linear = [{ start: 0, end: data.span, displayStart: 0, displayEnd: data.span, isBreak: false }];
          var segments = data.segments.length ? data.segments : linear;
          function scale() { return state.gaps ? segments : linear; }
          function displaySpan() { var s = scale(); return s[s.length - 1].displayEnd; }
          function toDisplay(ns) {
            var s = scale();
            for (var i = 0; i < s.length; i++) {
              var seg = s[i];
              if (ns <= seg.end) {
                if (ns <= seg.start || seg.end === seg.start) return seg.displayStart;
                return seg.displayStart + (ns - seg.start) / (seg.end - seg.start) * (seg.displayEnd - seg.displayStart);
              }
            }
            return displaySpan();
          }
          function fromDisplay(d) {
            var s = scale();
            for (var i = 0; i < s.length; i++) {
              var seg = s[i];
              if (d <= seg.displayEnd) {
                if (seg.displayEnd === seg.displayStart) return seg.start;
                return seg.start + Math.max(0, d - seg.displayStart) / (seg.displayEnd - seg.displayStart) * (seg.end - seg.start);
              }
            }
            return data.span;
          }

          // ---- State, read from and written to the address. ----
          var params = new URLSearchParams(window.location.search);
          var state = {
            gaps: params.get("gaps") !== "off",
            view: null,
            session: params.get("session") || "",
            queue: params.get("queue") || "",
            feature: params.get("feature") || "",
            failed: params.get("failed") === "1",
            sort: params.get("sort") === "duration" ? "duration" : "start",
            order: params.get("order") === "desc" ? "desc" : (params.get("order") === "asc" ? "asc"
              : (params.get("sort") === "duration" ? "desc" : "asc")),
            zoomParam: params.get("zoom")
          };

          function fullView() { return [0, displaySpan()]; }
          function clampView(from, to) {
            var total = displaySpan();
            var minimum = Math.min(total, Math.max(total * 1e-6, 50));
            var width = Math.min(total, Math.max(minimum, to - from));
            from = Math.max(0, Math.min(from, total - width));
            return [from, from + width];
          }
          function viewFromParam(text) {
            if (!text) return fullView();
            if (text === "busy") {
              var from = toDisplay(data.busiest[0]), to = toDisplay(data.busiest[1]);
              var pad = Math.max((to - from) * 0.02, displaySpan() * 0.002);
              return clampView(from - pad, to + pad);
            }
            var match = /^(-?[0-9.]+)-([0-9.]+)$/.exec(text);
            if (!match) return fullView();
            var a = parseFloat(match[1]) * 1e6, b = parseFloat(match[2]) * 1e6;
            if (!isFinite(a) || !isFinite(b) || b <= a) return fullView();
            return clampView(toDisplay(Math.max(0, a)), toDisplay(Math.min(data.span, b)));
          }
          state.view = viewFromParam(state.zoomParam);

          function writeAddress() {
            var out = new URLSearchParams();
            var full = fullView();
            if (state.view[0] > full[0] || state.view[1] < full[1]) {
              out.set("zoom", (fromDisplay(state.view[0]) / 1e6).toFixed(4) + "-" + (fromDisplay(state.view[1]) / 1e6).toFixed(4));
            }
            if (!state.gaps) out.set("gaps", "off");
            ["session", "queue", "feature"].forEach(function (key) { if (state[key]) out.set(key, state[key]); });
            if (state.failed) out.set("failed", "1");
            if (state.sort !== "start" || state.order !== "asc") { out.set("sort", state.sort); out.set("order", state.order); }
            var query = out.toString();
            try {
              history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
            } catch (error) { /* Some browsers refuse to change a file: address; the view just is not kept. */ }
          }

          // Text as the chart's lanes, the table, the menus and the tooltip show it: a text longer than `limit`
          // characters (160 unless given) keeps its start and its end around "…", so that a report with texts of
          // tens of thousands of characters is laid out as fast as any other. The whole text stays in the data,
          // in the lanes' and cells' titles and in the details of an action.
          function brief(text, limit) {
            limit = limit || 160;
            if (text.length <= limit) return text;
            var head = text.slice(0, Math.ceil(limit / 2)), end = text.slice(text.length - Math.floor(limit / 2));
            // Never a lone half of a character outside the Basic Multilingual Plane at the cut.
            var last = head.charCodeAt(head.length - 1), first = end.charCodeAt(0);
            if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
            if (first >= 0xdc00 && first <= 0xdfff) end = end.slice(1);
            return head + "…" + end;
          }

          // `text`, or "…" and as much of its end as fits in `width` pixels: queue labels differ at their ends.
          // The start of the end that fits is found by halving, with a few dozen measurements of short strings
          // however long the label: when its last ceil(width) + 1 characters are already too wide (a character
          // is at least a pixel wide), the whole is never measured and the start lies among them; otherwise
          // (characters narrower than a pixel) it is looked for among all of them.
          var fitting = document.createElement("canvas").getContext("2d");
          function tail(text, font, width) {
            fitting.font = font;
            function fits(start) { return fitting.measureText("…" + text.slice(start)).width <= width; }
            var nearEnd = Math.max(0, text.length - Math.ceil(width) - 1);
            var low = 1, high = text.length - 1;
            if (nearEnd > 0 && fitting.measureText(text.slice(nearEnd)).width > width) {
              low = nearEnd;
            } else {
              if (fitting.measureText(text).width <= width) return text;
              if (text.length <= 1) return "…" + text;
            }
            while (low < high) {
              var middle = Math.floor((low + high) / 2);
              if (fits(middle)) high = middle; else low = middle + 1;
            }
            // Never start with the second half of a character outside the Basic Multilingual Plane.
            var code = text.charCodeAt(low);
            if (code >= 0xdc00 && code <= 0xdfff && low + 1 < text.length) low += 1;
            return "…" + text.slice(low);
          }

          // ---- Chart skeleton: axis, break overlay, lanes. ----
          var plotWidth = 1;
          var axis = element("div", "axis");
          axis.title = "Drag to zoom into a range; the mouse wheel zooms around the pointer";
          var axisRow = element("div", "axis-row");
          var axisCorner = element("div", "axis-corner", "time since the first start");
          axisRow.appendChild(axisCorner);
          axisRow.appendChild(axis);
          chart.appendChild(axisRow);
          var overlay = element("div", "overlay");
          var selection = element("div", "selection");
          selection.hidden = true;
          overlay.appendChild(selection);
          chart.appendChild(overlay);

          var rowsByLane = data.lanes.map(function (lane) {
            var node = element("div", "lane" + (lane.firstOfSession ? " first-of-session" : ""));
            var label = element("div", "lane-label");
            label.appendChild(element("div", "session", lane.firstOfSession ? "session " + brief(lane.session) : ""));
            label.appendChild(element("div", "queue", tail(lane.queue, "12px ui-monospace, monospace", labelWidth - 12)));
            label.title = "session " + lane.session + ", queue " + lane.queue;
            var rows = element("div", "lane-rows");
            rows.style.height = Math.max(1, lane.rows) * rowHeight + 4 + "px";
            node.appendChild(label);
            node.appendChild(rows);
            chart.appendChild(node);
            return rows;
          });

          var nodes = data.bars.map(function (bar, index) {
            var node = element("div", "bar " + bar.status);
            node.setAttribute("data-status", bar.status);
            node.setAttribute("data-request", String(bar.request));
            node.style.top = bar.row * rowHeight + 3 + "px";
            var text = element("span", "bar-text");
            node.appendChild(text);
            node.addEventListener("mousemove", function (event) { showTooltip(bar.summary, event); });
            node.addEventListener("mouseleave", hideTooltip);
            node.addEventListener("click", function () { select(index); });
            rowsByLane[bar.lane].appendChild(node);
            var beside = element("span", "bar-label");
            beside.hidden = true;
            rowsByLane[bar.lane].appendChild(beside);
            return { bar: bar, node: node, text: text, beside: beside };
          });

          function showTooltip(text, event) {
            tooltip.textContent = brief(text, 600);
            tooltip.hidden = false;
            tooltip.style.left = Math.max(4, Math.min(event.clientX + 12, window.innerWidth - 430)) + "px";
            tooltip.style.top = event.clientY + 14 + "px";
          }
          function hideTooltip() { tooltip.hidden = true; }

          // ---- Text measuring, for labels that fit whole or not at all. ----
          var measure = document.createElement("canvas").getContext("2d");
          var measured = {};
          function textWidth(text) {
            if (!(text in measured)) measured[text] = measure.measureText(text).width;
            return measured[text];
          }
          // Whether `text` fits in `room` pixels. A long text is first measured by its start alone: when that is
          // already too wide, so is the whole, which is then never measured.
          function fitsIn(text, room) {
            if (text.length > 400 && textWidth(text.slice(0, 400)) > room) return false;
            return textWidth(text) <= room;
          }

          // ---- Drawing at the current view. ----
          function pixel(display) {
            return (display - state.view[0]) / (state.view[1] - state.view[0]) * plotWidth;
          }

          function niceStep(rough) {
            var magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(rough, 1))));
            var steps = [1, 2, 5, 10].map(function (f) { return f * magnitude; });
            return steps.filter(function (s) { return s >= rough; })[0] || magnitude * 10;
          }

          function drawAxis() {
            axis.textContent = "";
            Array.prototype.slice.call(overlay.querySelectorAll(".break")).forEach(function (node) { overlay.removeChild(node); });
            var nsPerPixel = (state.view[1] - state.view[0]) / plotWidth;
            var step = niceStep(nsPerPixel * 100);
            var taken = [];
            scale().forEach(function (seg) {
              var left = pixel(seg.displayStart), right = pixel(seg.displayEnd);
              if (right < 0 || left > plotWidth) return;
              if (!seg.isBreak) return;
              var band = element("div", "break");
              band.style.left = left + "px";
              band.style.width = Math.max(6, right - left) + "px";
              var hidden = formatTime(seg.end - seg.start) + " idle";
              band.title = hidden + " (" + formatTime(seg.start) + " to " + formatTime(seg.end) + ") collapsed";
              band.setAttribute("data-hidden-ns", String(seg.end - seg.start));
              overlay.appendChild(band);
              var center = (left + right) / 2;
              var text = "⋯ " + hidden;
              var width = textWidth(text) + 12;
              var pillLeft = Math.max(0, Math.min(plotWidth - width, center - width / 2));
              if (taken.some(function (t) { return pillLeft < t[1] && pillLeft + width > t[0]; })) return;
              var pill = element("div", "break-label", text);
              pill.title = band.title;
              pill.style.left = pillLeft + "px";
              axis.appendChild(pill);
              taken.push([pillLeft, pillLeft + width]);
            });
            var lastRight = -Infinity;
            var viewFrom = fromDisplay(state.view[0]), viewTo = fromDisplay(state.view[1]);
            scale().forEach(function (seg) {
              if (seg.isBreak || seg.end < viewFrom || seg.start > viewTo) return;
              var first = Math.ceil(Math.max(seg.start, viewFrom) / step) * step;
              var last = Math.min(seg.end, viewTo);
              for (var t = first; t <= last; t += step) {
                var x = pixel(toDisplay(t));
                if (x < -1 || x > plotWidth - 20) continue;
                var text = formatTime(t, step);
                var width = textWidth(text) + 8;
                if (x < lastRight + 6) continue;
                var tick = element("div", "tick", text);
                tick.style.left = x + "px";
                axis.appendChild(tick);
                lastRight = x + width;
              }
            });
          }

          function placeLabels(visible) {
            // Each row's bars in order, to know how much room lies beside a bar before the next one.
            var rows = {};
            visible.forEach(function (item) {
              var key = item.entry.bar.lane + ":" + item.entry.bar.row;
              (rows[key] = rows[key] || []).push(item);
            });
            Object.keys(rows).forEach(function (key) {
              var row = rows[key].sort(function (a, b) { return a.left - b.left; });
              row.forEach(function (item, position) {
                var entry = item.entry;
                var next = position + 1 < row.length ? row[position + 1].left : plotWidth;
                var room = Math.min(next, plotWidth) - (item.left + item.width) - 10;
                var inside = item.width - 10;
                var choices = [entry.bar.label, entry.bar.action];
                var placed = "";
                entry.text.textContent = "";
                entry.beside.hidden = true;
                for (var i = 0; i < choices.length && !placed; i++) {
                  if (fitsIn(choices[i], inside)) { entry.text.textContent = choices[i]; placed = "inside"; }
                }
                for (var j = 0; j < choices.length && !placed; j++) {
                  if (fitsIn(choices[j], room)) {
                    entry.beside.textContent = choices[j];
                    entry.beside.style.left = item.left + item.width + 4 + "px";
                    entry.beside.style.top = entry.bar.row * rowHeight + 3 + "px";
                    entry.beside.className = "bar-label " + entry.bar.status;
                    entry.beside.hidden = false;
                    placed = "beside";
                  }
                }
                entry.node.setAttribute("data-label", placed || "tooltip");
              });
            });
          }

          function drawBars() {
            var visible = [];
            nodes.forEach(function (entry) {
              var bar = entry.bar;
              var left = pixel(toDisplay(bar.start)), right = pixel(toDisplay(bar.end));
              var shown = right >= 0 && left <= plotWidth;
              entry.node.hidden = !shown;
              entry.node.setAttribute("data-visible", shown ? "1" : "0");
              if (!shown) { entry.beside.hidden = true; entry.node.removeAttribute("data-rect"); return; }
              var clippedLeft = Math.max(left, -2), clippedRight = Math.min(right, plotWidth + 2);
              var width = Math.max(3, clippedRight - clippedLeft);
              if (clippedLeft + width > plotWidth) clippedLeft = Math.max(0, plotWidth - width);
              entry.node.style.left = clippedLeft + "px";
              entry.node.style.width = width + "px";
              visible.push({ entry: entry, left: clippedLeft, width: width });
            });
            placeLabels(visible);
            var count = 0;
            visible.forEach(function (item) {
              if (item.entry.node.classList.contains("dimmed")) return;
              var rect = item.entry.node.getBoundingClientRect();
              item.entry.node.setAttribute("data-rect",
                [rect.left + window.scrollX, rect.top + window.scrollY, rect.width, rect.height].map(Math.round).join(","));
              count++;
            });
            chart.setAttribute("data-visible-bars", String(count));
          }

          function drawRange() {
            var range = document.getElementById("view-range");
            var from = fromDisplay(state.view[0]), to = fromDisplay(state.view[1]);
            var full = fullView();
            var zoomed = state.view[0] > full[0] || state.view[1] < full[1];
            range.textContent = (zoomed ? "Zoomed to " : "Showing ") + formatTime(from, (to - from) / 100) + " – "
              + formatTime(to, (to - from) / 100) + (zoomed ? " (" + +(displaySpan() / (state.view[1] - state.view[0])).toPrecision(2) + "×)" : "");
            document.getElementById("zoom-reset").disabled = !zoomed;
            chart.setAttribute("data-view", [from, to].map(Math.round).join(","));
          }

          function render() {
            plotWidth = Math.max(1, axis.clientWidth);
            drawAxis();
            drawBars();
            drawRange();
          }
          var pending = false;
          // The next frame draws the new view, or a short timer when no frame comes (a hidden tab, a headless
          // browser): whichever comes first.
          function renderSoon() {
            if (pending) return;
            pending = true;
            function draw() { if (pending) { pending = false; render(); } }
            window.requestAnimationFrame(draw);
            window.setTimeout(draw, 32);
          }
          function setView(view) {
            state.view = clampView(view[0], view[1]);
            renderSoon();
            writeAddress();
          }

          // ---- Zoom: wheel and drag over the axis, buttons. ----
          function displayAt(clientX) {
            var rect = axis.getBoundingClientRect();
            var fraction = Math.max(0, Math.min(1, (clientX - rect.left) / rect.width));
            return state.view[0] + fraction * (state.view[1] - state.view[0]);
          }
          axis.addEventListener("wheel", function (event) {
            event.preventDefault();
            var width = state.view[1] - state.view[0];
            if (Math.abs(event.deltaX) > Math.abs(event.deltaY) || event.shiftKey) {
              var delta = (event.deltaX || event.deltaY) / plotWidth * width;
              setView([state.view[0] + delta, state.view[1] + delta]);
              return;
            }
            var anchor = displayAt(event.clientX);
            var factor = Math.exp(Math.max(-300, Math.min(300, event.deltaY)) * 0.002);
            setView([anchor - (anchor - state.view[0]) * factor, anchor + (state.view[1] - anchor) * factor]);
          }, { passive: false });
          var dragFrom = null;
          axis.addEventListener("mousedown", function (event) {
            if (event.button !== 0) return;
            event.preventDefault();
            dragFrom = event.clientX;
          });
          window.addEventListener("mousemove", function (event) {
            if (dragFrom === null) return;
            var rect = axis.getBoundingClientRect();
            var a = Math.max(rect.left, Math.min(dragFrom, event.clientX)), b = Math.min(rect.right, Math.max(dragFrom, event.clientX));
            selection.hidden = false;
            selection.style.left = a - rect.left + "px";
            selection.style.width = b - a + "px";
          });
          window.addEventListener("mouseup", function (event) {
            if (dragFrom === null) return;
            var from = dragFrom;
            dragFrom = null;
            selection.hidden = true;
            if (Math.abs(event.clientX - from) < 4) return;
            var a = displayAt(Math.min(from, event.clientX)), b = displayAt(Math.max(from, event.clientX));
            setView([a, b]);
          });
          document.getElementById("zoom-reset").addEventListener("click", function () { setView(fullView()); });
          document.getElementById("zoom-busy").addEventListener("click", function () { setView(viewFromParam("busy")); });
          document.getElementById("zoom-in").addEventListener("click", function () {
            var w = state.view[1] - state.view[0], c = state.view[0] + w / 2;
            setView([c - w / 4, c + w / 4]);
          });
          document.getElementById("zoom-out").addEventListener("click", function () {
            var w = state.view[1] - state.view[0], c = state.view[0] + w / 2;
            setView([c - w, c + w]);
          });
          var gapsToggle = document.getElementById("collapse-gaps");
          gapsToggle.checked = state.gaps;
          gapsToggle.disabled = data.segments.filter(function (s) { return s.isBreak; }).length === 0;
          gapsToggle.addEventListener("change", function () {
            var from = fromDisplay(state.view[0]), to = fromDisplay(state.view[1]);
            state.gaps = gapsToggle.checked;
            state.view = clampView(toDisplay(from), toDisplay(to));
            render();
            writeAddress();
          });
          window.addEventListener("resize", renderSoon);

          // ---- Selection and details. ----
          var selected = -1;
          function select(index) {
            if (selected >= 0) {
              nodes[selected].node.classList.remove("selected");
              var oldRow = tableBody.querySelector("tr.selected");
              if (oldRow) oldRow.classList.remove("selected");
            }
            selected = index;
            var bar = nodes[index].bar;
            nodes[index].node.classList.add("selected");
            var row = tableBody.querySelector('tr[data-request="' + bar.request + '"]');
            if (row) row.classList.add("selected");
            details.textContent = "";
            details.appendChild(element("strong", "", bar.label));
            var table = element("table");
            bar.details.forEach(function (pair) {
              var tr = element("tr");
              tr.appendChild(element("th", "", pair[0]));
              tr.appendChild(element("td", "", pair[1]));
              table.appendChild(tr);
            });
            details.appendChild(table);
          }
          function bringIntoView(index) {
            var bar = nodes[index].bar;
            var from = toDisplay(bar.start), to = toDisplay(bar.end);
            if (from >= state.view[0] && to <= state.view[1]) return;
            var width = Math.max(state.view[1] - state.view[0], (to - from) * 1.2);
            var center = (from + to) / 2;
            setView([center - width / 2, center + width / 2]);
          }

          function selectFromAddress() {
            var match = /^#request-(\d+)$/.exec(window.location.hash);
            if (!match) return;
            nodes.forEach(function (entry, index) {
              if (String(entry.bar.request) === match[1]) select(index);
            });
          }

          // ---- The table of actions: sort and filter. ----
          var tableBody = document.querySelector("#actions tbody");
          var actionsTable = document.getElementById("actions");
          function distinct(values) {
            return values.filter(function (v, i) { return values.indexOf(v) === i; }).sort();
          }
          function fillFilter(id, key, values) {
            var menu = document.getElementById(id);
            distinct(values).forEach(function (value) {
              var option = element("option", "", brief(value));
              option.value = value;
              if (option.textContent !== value) option.title = value;
              menu.appendChild(option);
            });
            if (state[key] && distinct(values).indexOf(state[key]) < 0) state[key] = "";
            menu.value = state[key];
            menu.addEventListener("change", function () { state[key] = menu.value; applyFilters(); });
          }
          fillFilter("filter-session", "session", data.bars.map(function (b) { return data.lanes[b.lane].session; }));
          fillFilter("filter-queue", "queue", data.bars.map(function (b) { return data.lanes[b.lane].queue; }));
          fillFilter("filter-feature", "feature", data.bars.map(function (b) { return b.feature; }));
          var failedBox = document.getElementById("filter-failed");
          failedBox.checked = state.failed;
          failedBox.addEventListener("change", function () { state.failed = failedBox.checked; applyFilters(); });
          document.getElementById("filter-clear").addEventListener("click", function () {
            state.session = state.queue = state.feature = "";
            state.failed = false;
            ["filter-session", "filter-queue", "filter-feature"].forEach(function (id) { document.getElementById(id).value = ""; });
            failedBox.checked = false;
            applyFilters();
          });

          function matches(bar) {
            var lane = data.lanes[bar.lane];
            return (!state.session || lane.session === state.session) && (!state.queue || lane.queue === state.queue)
              && (!state.feature || bar.feature === state.feature) && (!state.failed || bar.status === "failure");
          }

          var sortButtons = Array.prototype.slice.call(document.querySelectorAll("#actions th button[data-sort]"));
          sortButtons.forEach(function (button) {
            button.addEventListener("click", function () {
              var key = button.getAttribute("data-sort");
              if (state.sort === key) state.order = state.order === "asc" ? "desc" : "asc";
              else { state.sort = key; state.order = key === "duration" ? "desc" : "asc"; }
              drawTable();
              writeAddress();
            });
          });

          function durationOf(bar) { return bar.duration == null ? Infinity : bar.duration; }

          function drawTable() {
            var indices = [];
            nodes.forEach(function (entry, index) { if (matches(entry.bar)) indices.push(index); });
            var sign = state.order === "asc" ? 1 : -1;
            indices.sort(function (a, b) {
              var x = nodes[a].bar, y = nodes[b].bar;
              var primary = state.sort === "duration" ? durationOf(x) - durationOf(y) : x.start - y.start;
              if (primary !== primary) primary = 0;
              return sign * primary || x.start - y.start || x.request - y.request;
            });
            tableBody.textContent = "";
            indices.forEach(function (index) {
              var bar = nodes[index].bar, lane = data.lanes[bar.lane];
              var tr = element("tr", bar.status + (index === selected ? " selected" : ""));
              tr.setAttribute("data-request", String(bar.request));
              tr.setAttribute("data-status", bar.status);
              [["num", String(bar.request)], ["num", formatTime(bar.start, 1e3)],
                ["num", bar.duration == null ? "running" : formatTime(bar.duration, bar.duration / 100)],
                ["", lane.session], ["mono", lane.queue], ["", bar.feature], ["", bar.action],
                ["outcome", bar.outcome]].forEach(function (cell) {
                var td = element("td", cell[0], brief(cell[1]));
                if (td.textContent !== cell[1]) td.title = cell[1];
                tr.appendChild(td);
              });
              tr.addEventListener("click", function () { select(index); bringIntoView(index); });
              tr.addEventListener("mouseenter", function () { nodes[index].node.classList.add("hovered"); });
              tr.addEventListener("mouseleave", function () { nodes[index].node.classList.remove("hovered"); });
              tableBody.appendChild(tr);
            });
            actionsTable.setAttribute("data-rows", String(indices.length));
            document.getElementById("table-count").textContent = indices.length === data.bars.length
              ? data.bars.length + " actions" : indices.length + " of " + data.bars.length + " actions";
            sortButtons.forEach(function (button) {
              var active = button.getAttribute("data-sort") === state.sort;
              button.parentNode.setAttribute("aria-sort", active ? (state.order === "asc" ? "ascending" : "descending") : "none");
              button.querySelector(".arrow").textContent = active ? (state.order === "asc" ? "▲" : "▼") : "";
            });
          }

          function applyFilters() {
            nodes.forEach(function (entry) { entry.node.classList.toggle("dimmed", !matches(entry.bar)); });
            drawTable();
            render();
            writeAddress();
          }

          // ---- First drawing, synchronous so that a screenshot taken at load shows it. ----
          nodes.forEach(function (entry) { entry.node.classList.toggle("dimmed", !matches(entry.bar)); });
          measure.font = window.getComputedStyle(nodes.length ? nodes[0].node : body).font;
          drawTable();
          if (data.bars.length === 0) chart.appendChild(element("p", "empty", "The timeline has no actions."));
          render();
          selectFromAddress();
          window.addEventListener("hashchange", selectFromAddress);
          var rect = chart.getBoundingClientRect();
          chart.setAttribute("data-chart-rect", [rect.left, rect.top, rect.width, rect.height].map(Math.round).join(","));
          status.textContent = "Drew " + data.bars.length + " bars.";
          body.setAttribute("data-render-ms", String(Math.round(window.performance.now() - started)));
          if (body.getAttribute("data-render") === "pending") body.setAttribute("data-render", "ok");
        })();
        """#
}
