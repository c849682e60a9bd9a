/// The script of the statistics page: draws the funnel, a chart per content, the campaigns' lifts and the actions
/// table from the embedded JSON (the same fields as `actuate stats --json`). Every text is set with
/// `textContent`, so nothing from the store is read as markup.
enum StatisticsPageScript {
    static let source = #"""
        "use strict";
        (function () {
          var body = document.body;
          var status = document.getElementById("render-status");
          window.addEventListener("error", function (event) {
            body.setAttribute("data-render", "error");
            status.textContent = "Script error: " + event.message;
          });
          var data = JSON.parse(document.getElementById("statistics-data").textContent);
          var svgNS = "http://www.w3.org/2000/svg";

          function element(tag, className, text) {
            var node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined && text !== null) node.textContent = String(text);
            return node;
          }
          function shape(tag, attributes) {
            var node = document.createElementNS(svgNS, tag);
            Object.keys(attributes).forEach(function (key) { node.setAttribute(key, String(attributes[key])); });
            return node;
          }
          function percent(value) {
            return value === undefined || value === null ? "–" : (value * 100).toFixed(1) + "%";
          }
          function signedPercent(value) {
            return (value >= 0 ? "+" : "−") + Math.abs(value * 100).toFixed(1) + "%";
          }
          function interval(value) {
            return value ? percent(value.lower) + "–" + percent(value.upper) : "–";
          }
          function rate(value, bounds) {
            return bounds ? percent(value) + " (95% " + interval(bounds) + ")" : percent(value);
          }
          function seconds(value) {
            if (value === undefined || value === null) return "–";
            return value >= 1 ? value.toFixed(2) + " s" : (value * 1000).toFixed(1) + " ms";
          }
          function cell(row, text, numeric) {
            row.appendChild(element("td", numeric ? "num" : "", text));
          }
          function label(content) {
            var name = content.name ? content.name + " " : "";
            return name + "(" + content.source + " " + content.id + ")";
          }
          function day(start) {
            return data.seriesInterval === "hour" ? start.slice(0, 13).replace("T", " ") + "h" : start.slice(0, 10);
          }

          var totals = data.totals;
          document.getElementById("summary").textContent =
            data.eventCount + " events in " + data.sessionCount + " sessions; " + data.contents.length +
            " contents, " + data.campaigns.length + " campaigns, " + data.actions.length + " actions; series per " +
            data.seriesInterval + " (UTC); " + data.deadLetterCount + " dead letters.";

          // ---- Funnel ----
          var funnel = document.getElementById("funnel");
          var clicked = totals.clicks + totals.productClicks + totals.articleClicks;
          [["shown", "Shown", totals.impressions, "impressions"],
           ["clicked", "Clicked", clicked, "clicks on a target, product or article"],
           ["purchased", "Purchased", totals.attributedPurchases, "products bought after a product click"]]
            .forEach(function (step, index, steps) {
              var node = element("div", "step");
              node.setAttribute("data-step", step[0]);
              node.setAttribute("data-count", step[2]);
              node.appendChild(element("div", "", step[1]));
              node.appendChild(element("div", "count", step[2]));
              var first = steps[0][2];
              var share = index === 0 ? "" : first > 0 ? percent(step[2] / first) + " of shown" : "";
              node.appendChild(element("div", "muted", step[3] + (share ? ", " + share : "")));
              var bar = element("div", "bar");
              bar.style.width = (first > 0 ? Math.max(2, 100 * step[2] / first) : 0) + "%";
              node.appendChild(bar);
              funnel.appendChild(node);
            });

          // ---- A chart per content ----
          var contents = document.getElementById("contents");
          var charts = 0;
          data.contents.forEach(function (entry) {
            var figures = entry.figures;
            var card = element("div", "card");
            card.setAttribute("data-source", entry.content.source);
            card.setAttribute("data-id", entry.content.id);
            card.setAttribute("data-impressions", figures.impressions);
            card.setAttribute("data-clicks", figures.clicks);
            if (figures.clickThroughRateInterval) {
              card.setAttribute("data-ctr-lower", figures.clickThroughRateInterval.lower);
              card.setAttribute("data-ctr-upper", figures.clickThroughRateInterval.upper);
            }
            card.appendChild(element("h3", "", label(entry.content)));
            card.appendChild(element("div", "muted",
              "shown " + figures.impressions + ", clicks " + figures.clicks + ", CTR " +
              rate(figures.clickThroughRate, figures.clickThroughRateInterval) + "; closes " + figures.closes +
              ", close rate " + rate(figures.closeRate, figures.closeRateInterval) + "; visit CTR " +
              rate(figures.visitClickThroughRate, figures.visitClickThroughRateInterval)));
            card.appendChild(chart(entry.series));
            charts += 1;
            contents.appendChild(card);
          });

          function chart(series) {
            var width = 400, height = 170, left = 34, right = 34, top = 8, bottom = 22;
            var svg = shape("svg", { viewBox: "0 0 " + width + " " + height, "class": "content-chart",
              "data-points": series.length, role: "img" });
            var plotWidth = width - left - right, plotHeight = height - top - bottom;
            svg.appendChild(shape("line", { x1: left, y1: top + plotHeight, x2: width - right, y2: top + plotHeight,
              stroke: "#b7c0c9" }));
            if (!series.length) {
              var empty = shape("text", { x: left + 8, y: top + plotHeight / 2, fill: "#5c6670", "font-size": 11 });
              empty.textContent = "no impressions or clicks with a timestamp";
              svg.appendChild(empty);
              return svg;
            }
            var maxImpressions = Math.max.apply(null, series.map(function (p) { return p.impressions; }).concat([1]));
            var maxRate = Math.max.apply(null, series.map(function (p) {
              return p.clickThroughRateInterval ? p.clickThroughRateInterval.upper : 0;
            }).concat([0.05]));
            var step = plotWidth / series.length;
            function x(index) { return left + step * (index + 0.5); }
            function yRate(value) { return top + plotHeight * (1 - value / maxRate); }
            series.forEach(function (point, index) {
              var barHeight = plotHeight * point.impressions / maxImpressions;
              var barWidth = Math.max(2, Math.min(36, step * 0.7));
              var bar = shape("rect", { x: x(index) - barWidth / 2, y: top + plotHeight - barHeight,
                width: barWidth, height: barHeight, fill: "var(--impressions)",
                "class": "impressions-bar", "data-start": point.start, "data-impressions": point.impressions });
              var title = shape("title", {});
              title.textContent = day(point.start) + ": " + point.impressions + " shown, " + point.clicks +
                " clicks, CTR " + rate(point.clickThroughRate, point.clickThroughRateInterval) + ", " +
                point.conversions + " conversions";
              bar.appendChild(title);
              svg.appendChild(bar);
            });
            var measured = series.map(function (point, index) { return [point, index]; })
              .filter(function (pair) { return pair[0].clickThroughRateInterval; });
            if (measured.length) {
              var upper = measured.map(function (pair) {
                return x(pair[1]) + "," + yRate(pair[0].clickThroughRateInterval.upper);
              });
              var lower = measured.slice().reverse().map(function (pair) {
                return x(pair[1]) + "," + yRate(pair[0].clickThroughRateInterval.lower);
              });
              if (measured.length === 1) {
                var only = measured[0];
                svg.appendChild(shape("rect", { x: x(only[1]) - 24, y: yRate(only[0].clickThroughRateInterval.upper),
                  width: 48, height: Math.max(1, yRate(only[0].clickThroughRateInterval.lower) -
                    yRate(only[0].clickThroughRateInterval.upper)), fill: "var(--band)", "class": "ctr-band" }));
              } else {
                svg.appendChild(shape("polygon", { points: upper.concat(lower).join(" "), fill: "var(--band)",
                  "class": "ctr-band" }));
              }
              svg.appendChild(shape("polyline", { points: measured.map(function (pair) {
                return x(pair[1]) + "," + yRate(pair[0].clickThroughRate);
              }).join(" "), fill: "none", stroke: "var(--ctr)", "stroke-width": 2, "class": "ctr-line" }));
              measured.forEach(function (pair) {
                svg.appendChild(shape("circle", { cx: x(pair[1]), cy: yRate(pair[0].clickThroughRate), r: 2.5,
                  fill: "var(--ctr)" }));
              });
            }
            function axisText(text, xPosition, yPosition, anchor, colour) {
              var node = shape("text", { x: xPosition, y: yPosition, "text-anchor": anchor, "font-size": 10,
                fill: colour || "#5c6670" });
              node.textContent = text;
              svg.appendChild(node);
            }
            axisText(day(series[0].start), left, height - 6, "start");
            if (series.length > 1) axisText(day(series[series.length - 1].start), width - right, height - 6, "end");
            axisText(String(maxImpressions), left - 4, top + 9, "end");
            axisText(percent(maxRate), width - right + 4, top + 9, "start", "#c2570c");
            axisText("0", left - 4, top + plotHeight, "end");
            return svg;
          }

          // ---- Campaigns ----
          var campaignRows = document.querySelector("#campaigns tbody");
          if (!data.campaigns.length) {
            var none = element("tr");
            var noneCell = element("td", "muted", "No campaign impressions in this store.");
            noneCell.colSpan = 8;
            none.appendChild(noneCell);
            campaignRows.appendChild(none);
          }
          data.campaigns.forEach(function (campaign) {
            var row = element("tr", "lift");
            row.setAttribute("data-campaign", campaign.campaignId);
            row.setAttribute("data-verdict", campaign.verdict);
            if (campaign.liftInterval) {
              row.setAttribute("data-lift-lower", campaign.liftInterval.lower);
              row.setAttribute("data-lift-upper", campaign.liftInterval.upper);
            }
            cell(row, campaign.campaignId);
            cell(row, Object.keys(campaign.goal).map(function (key) {
              var value = campaign.goal[key];
              return value && value._0 !== undefined ? key + " " + JSON.stringify(value._0) : key;
            }).join(", "));
            cell(row, campaign.testConversions + "/" + campaign.testVisitors + " " +
              rate(campaign.testRate, campaign.testRateInterval), true);
            cell(row, campaign.controlConversions + "/" + campaign.controlVisitors + " " +
              rate(campaign.controlRate, campaign.controlRateInterval), true);
            cell(row, campaign.lift === undefined ? "–" : signedPercent(campaign.lift), true);
            var drawing = element("td");
            drawing.appendChild(liftChart(campaign));
            var bounds = campaign.liftInterval;
            drawing.appendChild(element("div", "muted", bounds ?
              signedPercent(bounds.lower) + " to " + signedPercent(bounds.upper) : "needs both groups"));
            row.appendChild(drawing);
            var verdict = element("td", "verdict-" + campaign.verdict,
              campaign.verdict === "notDistinguishableYet" ? "not distinguishable yet" : campaign.verdict);
            row.appendChild(verdict);
            cell(row, campaign.visitorsPerGroupNeeded === undefined ? "–" : campaign.visitorsPerGroupNeeded +
              " (" + (campaign.additionalVisitorsPerGroupNeeded || 0) + " more)", true);
            campaignRows.appendChild(row);
          });

          function liftChart(campaign) {
            var width = 360, height = 28, pad = 8;
            var svg = shape("svg", { viewBox: "0 0 " + width + " " + height, "class": "lift-chart" });
            var bounds = campaign.liftInterval;
            var low = Math.min(-0.25, bounds ? Math.max(bounds.lower, -1) : 0);
            var high = Math.max(0.25, bounds ? Math.min(bounds.upper, 5) : 0);
            function x(value) {
              return pad + (width - 2 * pad) * (Math.min(Math.max(value, low), high) - low) / (high - low);
            }
            svg.appendChild(shape("line", { x1: x(0), y1: 2, x2: x(0), y2: height - 2, stroke: "#1d232a",
              "class": "zero-line" }));
            if (bounds) {
              var colour = campaign.verdict === "better" ? "var(--better)" :
                campaign.verdict === "worse" ? "var(--worse)" : "var(--unknown)";
              svg.appendChild(shape("rect", { x: x(bounds.lower), y: height / 2 - 4,
                width: Math.max(2, x(bounds.upper) - x(bounds.lower)), height: 8, rx: 3, fill: colour,
                opacity: 0.55, "class": "lift-interval" }));
              if (campaign.lift !== undefined) {
                svg.appendChild(shape("circle", { cx: x(campaign.lift), cy: height / 2, r: 4, fill: colour }));
              }
            }
            return svg;
          }

          // ---- Actions ----
          var actionRows = document.querySelector("#actions tbody");
          data.actions.forEach(function (action) {
            var figures = action.figures;
            var row = element("tr");
            row.setAttribute("data-analytics-id", action.analyticsID);
            row.setAttribute("data-performed", figures.performed);
            row.setAttribute("data-failed", figures.failed);
            cell(row, action.actionName + " (" + action.analyticsID + ")");
            cell(row, action.featurePath);
            cell(row, figures.performed, true);
            cell(row, figures.failed, true);
            cell(row, rate(figures.failureRate, figures.failureRateInterval), true);
            cell(row, seconds(figures.medianDurationSeconds), true);
            cell(row, seconds(figures.p95DurationSeconds), true);
            cell(row, figures.arrivedFromApplication, true);
            cell(row, figures.arrivedFromURL, true);
            cell(row, figures.arrivedFromActivity, true);
            cell(row, figures.arrivedFromIntent, true);
            actionRows.appendChild(row);
          });

          body.setAttribute("data-charts", charts);
          body.setAttribute("data-render", "ok");
          status.textContent = "Drawn from " + data.eventCount + " events.";
        })();
        """#
}
