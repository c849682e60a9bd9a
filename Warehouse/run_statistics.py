#!/usr/bin/env python3
"""Computes the figures of `actuate stats --json` in SQL, on DuckDB or on ClickHouse (chDB, its engine in-process).

    python3 Warehouse/run_statistics.py --engine duckdb EVENTS.ndjson... --json
    python3 Warehouse/run_statistics.py --engine clickhouse EVENTS.ndjson... --json

The NDJSON files are the flat rows `actuate export SOURCE... --ndjson OUT` writes (schema.sql). The engine's
file (duckdb.sql or clickhouse.sql) loads them and defines the few helpers whose spelling differs; statistics.sql,
the same for both, computes the figures. With --json it prints the JSON object `actuate stats --json` prints, with
the fields the SQL computes: contents (with their figures, Wilson intervals and credited purchases), totals,
purchasedProducts, contributionRate, eventCount, sessionCount, malformedEventCount, actions (failure rate with its
interval, exact median and 95th-percentile durations) and campaigns (groups, conversions, rates, lift with Katz's
interval, verdict, visitors needed). Series, arrivals and dead letters are left to `actuate stats`. Without --json
it prints one line per content, campaign and action.

It needs the duckdb or chdb-core-lite package (`.ci/run` installs both into .build/warehouse-venv); when they are
not importable it re-runs itself with that virtual environment's Python, if there is one.
"""

import argparse
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.abspath(os.path.join(HERE, "..", ".build", "warehouse-venv"))
VENV_PYTHON = os.path.join(VENV, "bin", "python")
ATTRIBUTION_WINDOW_SECONDS = 7 * 24 * 60 * 60


def statements(text):
    """The statements of a SQL file: comment lines dropped, split at semicolons (none is inside a string)."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]


def named_queries(text):
    """{name: query} for each "-- name: NAME" section of statistics.sql."""
    queries = {}
    for section in re.split(r"^-- name: ", text, flags=re.MULTILINE)[1:]:
        name, _, body = section.partition("\n")
        found = statements(body)
        if len(found) != 1:
            raise SystemExit("statistics.sql: section %s must hold one query, not %d" % (name, len(found)))
        queries[name.strip()] = found[0]
    return queries


def read(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as handle:
        return handle.read()


def sql_string(text):
    return "'" + text.replace("'", "''") + "'"


class DuckDB:
    def __init__(self, files):
        import duckdb

        self.connection = duckdb.connect()
        listed = "[" + ", ".join(sql_string(os.path.abspath(path)) for path in files) + "]"
        for statement in statements(read("duckdb.sql")):
            self.connection.execute(statement.replace("{files}", listed))

    def rows(self, query):
        cursor = self.connection.execute(query)
        columns = [column[0] for column in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]


class ClickHouse:
    def __init__(self, files):
        from chdb import session

        self.session = session.Session()
        self.session.query("CREATE DATABASE IF NOT EXISTS actuate")
        self.session.query("USE actuate")
        for statement in statements(read("clickhouse.sql")):
            if "{file}" in statement:
                for path in files:
                    self.query(statement.replace("{file}", os.path.abspath(path).replace("'", "''")))
            else:
                self.query(statement)

    def query(self, text, output="CSV"):
        result = self.session.query(text, output)
        error = getattr(result, "error_message", None)
        if callable(error):
            error = error()
        if error:
            raise RuntimeError("ClickHouse: %s\nin: %s" % (error, text[:300]))
        return result

    def rows(self, query):
        result = self.query(
            query + " SETTINGS output_format_json_quote_64bit_integers = 0, join_use_nulls = 1", "JSONEachRow"
        )
        text = result.data() if hasattr(result, "data") else str(result)
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def interval(row, prefix):
    lower, upper = row.get(prefix + "_lower"), row.get(prefix + "_upper")
    if lower is None or upper is None:
        return None
    return {"lower": float(lower), "upper": float(upper)}


def number(value):
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def compact(mapping):
    """Leaves out nil fields, as Swift's JSONEncoder does for optionals."""
    return {key: value for key, value in mapping.items() if value is not None}


def figures(row):
    return compact({
        "impressions": int(row["impressions"]),
        "clicks": int(row["clicks"]),
        "closes": int(row["closes"]),
        "productClicks": int(row["product_clicks"]),
        "articleClicks": int(row["article_clicks"]),
        "errors": int(row["errors"]),
        "sessionsWithImpression": int(row["sessions_with_impression"] or 0),
        "sessionsWithClick": int(row["sessions_with_click"] or 0),
        "attributedPurchases": int(row["attributed_purchases"] or 0),
        "clickThroughRate": number(row["click_through_rate"]),
        "clickThroughRateInterval": interval(row, "click_through_rate"),
        "closeRate": number(row["close_rate"]),
        "closeRateInterval": interval(row, "close_rate"),
        "visitClickThroughRate": number(row["visit_click_through_rate"]),
        "visitClickThroughRateInterval": interval(row, "visit_click_through_rate"),
    })


def numeric_key(text):
    """Orders ids as Swift's numeric comparison does: runs of digits by value."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text) if part]


def statistics(engine):
    queries = named_queries(read("statistics.sql"))
    counts = engine.rows(queries["counts"])[0]
    totals = engine.rows(queries["totals"])[0]
    contents = []
    for row in engine.rows(queries["contents"]):
        content = compact({"source": row["source"], "id": row["content_id"], "name": row["content_name"]})
        contents.append({"content": content, "figures": figures(row), "series": []})
    contents.sort(key=lambda c: (c["content"]["source"], numeric_key(c["content"]["id"])))
    actions = []
    for row in engine.rows(queries["actions"]):
        actions.append({
            "analyticsID": row["analytics_id"],
            "actionName": row["action_name"],
            "featurePath": row["feature_path"],
            "figures": compact({
                "performed": int(row["performed"]),
                "failed": int(row["failed"]),
                "cancelled": int(row["cancelled"]),
                "failureRate": number(row["failure_rate"]),
                "failureRateInterval": interval(row, "failure_rate"),
                "medianDurationSeconds": number(row["median_duration_seconds"]),
                "p95DurationSeconds": number(row["p95_duration_seconds"]),
                "arrivedFromApplication": int(row["arrived_from_application"]),
                "arrivedFromURL": int(row["arrived_from_url"]),
                "arrivedFromActivity": int(row["arrived_from_activity"]),
                "arrivedFromIntent": int(row["arrived_from_intent"]),
            }),
        })
    actions.sort(key=lambda a: a["analyticsID"])
    campaigns = []
    for row in engine.rows(queries["campaigns"]):
        test_visitors, control_visitors = int(row["test_visitors"]), int(row["control_visitors"])
        needed = row["visitors_per_group_needed"]
        needed = None if needed is None else int(needed)
        campaigns.append(compact({
            "campaignId": row["campaign_id"],
            "goal": {"purchase": {}},
            "testVisitors": test_visitors,
            "testConversions": int(row["test_conversions"]),
            "controlVisitors": control_visitors,
            "controlConversions": int(row["control_conversions"]),
            "series": [],
            "testRate": number(row["test_rate"]),
            "testRateInterval": interval(row, "test_rate"),
            "controlRate": number(row["control_rate"]),
            "controlRateInterval": interval(row, "control_rate"),
            "lift": number(row["lift"]),
            "liftInterval": interval(row, "lift"),
            "verdict": row["verdict"],
            "visitorsPerGroupNeeded": needed,
            "additionalVisitorsPerGroupNeeded": None if needed is None
            else max(0, needed - min(test_visitors, control_visitors)),
        }))
    campaigns.sort(key=lambda c: c["campaignId"])
    total_row = dict(totals)
    return compact({
        "contents": contents,
        "totals": figures(total_row),
        "purchasedProducts": int(totals["purchased_products"]),
        "contributionRate": number(totals["contribution_rate"]),
        "eventCount": int(counts["event_count"]),
        "sessionCount": int(counts["session_count"]),
        "malformedEventCount": int(counts["malformed_event_count"] or 0),
        "attributionWindowSeconds": ATTRIBUTION_WINDOW_SECONDS,
        "seriesInterval": "day",
        "actions": actions,
        "campaigns": campaigns,
    })


def text(result):
    lines = ["Events: %d, sessions: %d" % (result["eventCount"], result["sessionCount"])]
    for content in result["contents"]:
        f = content["figures"]
        ctr = f.get("clickThroughRate")
        lines.append("%s:%s  impressions %d  clicks %d  CTR %s" % (
            content["content"]["source"], content["content"]["id"], f["impressions"], f["clicks"],
            "n/a" if ctr is None else "%.1f%%" % (ctr * 100)))
    for campaign in result["campaigns"]:
        lines.append("campaign %s: test %d/%d, control %d/%d, %s" % (
            campaign["campaignId"], campaign["testConversions"], campaign["testVisitors"],
            campaign["controlConversions"], campaign["controlVisitors"], campaign["verdict"]))
    for action in result["actions"]:
        f = action["figures"]
        lines.append("action %s: %d performed, %d failed" % (action["analyticsID"], f["performed"], f["failed"]))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="Actuate's statistics in SQL, on DuckDB or ClickHouse (chDB).")
    parser.add_argument("--engine", choices=["duckdb", "clickhouse"], default="duckdb")
    parser.add_argument("--json", action="store_true", help="print the figures as actuate stats --json does")
    parser.add_argument("files", nargs="+", metavar="EVENTS.ndjson")
    arguments = parser.parse_args()
    for path in arguments.files:
        if not os.path.isfile(path):
            print("run_statistics.py: %s: there is no such file" % path, file=sys.stderr)
            return 1
    module = "duckdb" if arguments.engine == "duckdb" else "chdb"
    try:
        __import__(module)
    except ImportError:
        if os.path.exists(VENV_PYTHON) and os.path.abspath(sys.prefix) != VENV:
            os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
        print("run_statistics.py: the %s package is not installed (pip install %s)"
              % (module, "duckdb" if module == "duckdb" else "chdb-core-lite"), file=sys.stderr)
        return 1
    engine = DuckDB(arguments.files) if arguments.engine == "duckdb" else ClickHouse(arguments.files)
    result = statistics(engine)
    if arguments.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        sys.stdout.write(text(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
