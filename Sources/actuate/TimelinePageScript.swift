/// The script of the timeline page: draws the axis, lanes and bars from the embedded data, and shows a
/// summary on hover and every detail on click.
enum TimelinePageScript {
    static let source = #"""
        "use strict";
        (function () {
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
          var rowHeight = 22;

          function element(tag, className, text) {
            var node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined) node.textContent = text;
            return node;
          }

          function formatTime(ns) {
            if (ns === 0) return "0";
            if (ns < 1e3) return ns + " ns";
            if (ns < 1e6) return +(ns / 1e3).toFixed(1) + " µs";
            if (ns < 1e9) return +(ns / 1e6).toFixed(2) + " ms";
            return +(ns / 1e9).toFixed(2) + " s";
          }

          function percent(ns) {
            return (ns / data.span) * 100;
          }

          function drawAxis() {
            var axis = element("div", "axis");
            var rough = data.span / 8;
            var magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(rough, 1))));
            var step = [1, 2, 5, 10].map(function (f) { return f * magnitude; })
              .filter(function (s) { return s >= rough; })[0] || magnitude * 10;
            for (var t = 0; t <= data.span; t += step) {
              var tick = element("div", "tick", formatTime(t));
              tick.style.left = percent(t) + "%";
              axis.appendChild(tick);
            }
            chart.appendChild(axis);
          }

          function showDetails(bar, node) {
            var selected = chart.querySelector(".bar.selected");
            if (selected) selected.classList.remove("selected");
            node.classList.add("selected");
            details.textContent = "";
            details.appendChild(element("strong", "", bar.label));
            var table = element("table");
            bar.details.forEach(function (pair) {
              var row = element("tr");
              row.appendChild(element("th", "", pair[0]));
              row.appendChild(element("td", "", pair[1]));
              table.appendChild(row);
            });
            details.appendChild(table);
          }

          function drawLanes() {
            var rowsByLane = data.lanes.map(function (lane) {
              var node = element("div", "lane" + (lane.firstOfSession ? " first-of-session" : ""));
              var label = element("div", "lane-label");
              label.appendChild(element("div", "session", lane.firstOfSession ? "session " + lane.session : ""));
              label.appendChild(element("div", "queue", lane.queue));
              label.title = "session " + lane.session + ", queue " + lane.queue;
              var rows = element("div", "lane-rows");
              rows.style.height = Math.max(2, lane.rows) * rowHeight + "px";
              node.appendChild(label);
              node.appendChild(rows);
              chart.appendChild(node);
              return rows;
            });
            return data.bars.map(function (bar) {
              var node = element("div", "bar " + bar.status, bar.label);
              var left = percent(bar.start);
              node.style.left = left > 99.5 ? "calc(100% - 6px)" : left + "%";
              node.style.width = percent(bar.end - bar.start) + "%";
              node.style.top = bar.row * rowHeight + 2 + "px";
              node.setAttribute("data-status", bar.status);
              node.addEventListener("mousemove", function (event) {
                tooltip.textContent = bar.summary;
                tooltip.hidden = false;
                tooltip.style.left = Math.min(event.clientX + 12, window.innerWidth - 430) + "px";
                tooltip.style.top = event.clientY + 14 + "px";
              });
              node.addEventListener("mouseleave", function () { tooltip.hidden = true; });
              node.addEventListener("click", function () { showDetails(bar, node); });
              rowsByLane[bar.lane].appendChild(node);
              return node;
            });
          }

          function selectFromAddress() {
            var match = /^#request-(\d+)$/.exec(window.location.hash);
            if (!match) return;
            data.bars.forEach(function (bar, index) {
              if (String(bar.request) === match[1]) showDetails(bar, nodes[index]);
            });
          }

          drawAxis();
          var nodes = drawLanes();
          if (data.bars.length === 0) chart.appendChild(element("p", "", "The timeline has no actions."));
          selectFromAddress();
          window.addEventListener("hashchange", selectFromAddress);
          var rect = chart.getBoundingClientRect();
          chart.setAttribute("data-chart-rect", [rect.left, rect.top, rect.width, rect.height].map(Math.round).join(","));
          status.textContent = "Drew " + chart.querySelectorAll(".bar").length + " bars.";
          if (body.getAttribute("data-render") === "pending") body.setAttribute("data-render", "ok");
        })();
        """#
}
