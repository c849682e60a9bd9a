-- The figures of `actuate stats --json`, in SQL that runs unchanged on DuckDB and ClickHouse over the views that
-- duckdb.sql or clickhouse.sql create (actuate_facts, actuate_purchase_products) and their helpers (wilson_lower,
-- wilson_upper). Each query follows a "-- name:" line; run_statistics.py runs them and assembles the JSON.
-- Definitions are those of ReportingStatistics, CampaignLift and RateComparison in the Swift sources.

-- name: counts
SELECT
    count(*) AS event_count,
    count(DISTINCT session_id) AS session_count,
    sum(CASE WHEN event_type IN ('executed', 'target', 'close', 'product', 'article', 'error')
        AND coalesce(content_source, '') <> 'appAction' AND coalesce(content_id, '') = '' THEN 1 ELSE 0 END)
        AS malformed_event_count
FROM actuate_facts;

-- name: contents
-- One row per content (source, id): counts, sessions, credited purchases, rates and their Wilson intervals.
WITH content_events AS (
    SELECT coalesce(content_source, 'action') AS source, content_id, content_name, event_type, session_id, event_ms
    FROM actuate_facts
    WHERE event_type IN ('executed', 'target', 'close', 'product', 'article', 'error')
        AND coalesce(content_source, '') <> 'appAction' AND coalesce(content_id, '') <> ''
),
clicks AS (
    SELECT coalesce(content_source, 'action') AS source, content_id, anonymous_id, user_id, product_id, event_ms
    FROM actuate_facts
    WHERE event_type = 'product' AND coalesce(content_source, '') <> 'appAction' AND coalesce(content_id, '') <> ''
        AND coalesce(product_id, '') <> ''
),
candidates AS (
    -- The same person: the same anonymous id, or the same user id.
    SELECT p.event_id, p.product_id, p.event_ms AS purchase_ms, c.source, c.content_id, c.event_ms AS click_ms
    FROM actuate_purchase_products p
    JOIN clicks c ON c.product_id = p.product_id AND c.anonymous_id = p.anonymous_id
    UNION ALL
    SELECT p.event_id, p.product_id, p.event_ms AS purchase_ms, c.source, c.content_id, c.event_ms AS click_ms
    FROM actuate_purchase_products p
    JOIN clicks c ON c.product_id = p.product_id AND c.user_id = p.user_id
    WHERE p.user_id IS NOT NULL AND c.user_id IS NOT NULL
),
ranked AS (
    -- The most recent click no more than the window (7 days, its end included) before the purchase.
    SELECT event_id, product_id, source, content_id,
        row_number() OVER (PARTITION BY event_id, product_id ORDER BY click_ms DESC) AS rank_of_click
    FROM candidates
    WHERE purchase_ms - click_ms >= 0 AND purchase_ms - click_ms <= 604800000
),
credited AS (
    SELECT source, content_id, count(*) AS attributed_purchases
    FROM ranked
    WHERE rank_of_click = 1
    GROUP BY source, content_id
),
counted AS (
    SELECT
        source, content_id,
        max(content_name) AS content_name,
        sum(CASE WHEN event_type = 'executed' THEN 1 ELSE 0 END) AS impressions,
        sum(CASE WHEN event_type = 'target' THEN 1 ELSE 0 END) AS clicks,
        sum(CASE WHEN event_type = 'close' THEN 1 ELSE 0 END) AS closes,
        sum(CASE WHEN event_type = 'product' THEN 1 ELSE 0 END) AS product_clicks,
        sum(CASE WHEN event_type = 'article' THEN 1 ELSE 0 END) AS article_clicks,
        sum(CASE WHEN event_type = 'error' THEN 1 ELSE 0 END) AS errors,
        count(DISTINCT CASE WHEN event_type = 'executed' THEN session_id END) AS sessions_with_impression,
        count(DISTINCT CASE WHEN event_type = 'target' THEN session_id END) AS sessions_with_click
    FROM content_events
    GROUP BY source, content_id
)
SELECT
    c.source AS source, c.content_id AS content_id, c.content_name AS content_name, c.impressions AS impressions,
    c.clicks AS clicks, c.closes AS closes, c.product_clicks AS product_clicks, c.article_clicks AS article_clicks,
    c.errors AS errors, c.sessions_with_impression AS sessions_with_impression,
    c.sessions_with_click AS sessions_with_click,
    coalesce(a.attributed_purchases, 0) AS attributed_purchases,
    CASE WHEN c.impressions > 0 THEN CAST(c.clicks AS DOUBLE) / c.impressions END AS click_through_rate,
    wilson_lower(c.clicks, c.impressions) AS click_through_rate_lower,
    wilson_upper(c.clicks, c.impressions) AS click_through_rate_upper,
    CASE WHEN c.impressions > 0 THEN CAST(c.closes AS DOUBLE) / c.impressions END AS close_rate,
    wilson_lower(c.closes, c.impressions) AS close_rate_lower,
    wilson_upper(c.closes, c.impressions) AS close_rate_upper,
    CASE WHEN c.sessions_with_impression > 0
        THEN CAST(c.sessions_with_click AS DOUBLE) / c.sessions_with_impression END AS visit_click_through_rate,
    wilson_lower(c.sessions_with_click, c.sessions_with_impression) AS visit_click_through_rate_lower,
    wilson_upper(c.sessions_with_click, c.sessions_with_impression) AS visit_click_through_rate_upper
FROM counted c
LEFT JOIN credited a ON a.source = c.source AND a.content_id = c.content_id
ORDER BY c.source, c.content_id;

-- name: totals
-- Over all content: each session counted once; purchased products and the share credited to product clicks.
WITH content_events AS (
    SELECT event_type, session_id
    FROM actuate_facts
    WHERE event_type IN ('executed', 'target', 'close', 'product', 'article', 'error')
        AND coalesce(content_source, '') <> 'appAction' AND coalesce(content_id, '') <> ''
),
clicks AS (
    SELECT anonymous_id, user_id, product_id, event_ms
    FROM actuate_facts
    WHERE event_type = 'product' AND coalesce(content_source, '') <> 'appAction' AND coalesce(content_id, '') <> ''
        AND coalesce(product_id, '') <> ''
),
candidates AS (
    SELECT p.event_id, p.product_id, p.event_ms AS purchase_ms, c.event_ms AS click_ms
    FROM actuate_purchase_products p
    JOIN clicks c ON c.product_id = p.product_id AND c.anonymous_id = p.anonymous_id
    UNION ALL
    SELECT p.event_id, p.product_id, p.event_ms AS purchase_ms, c.event_ms AS click_ms
    FROM actuate_purchase_products p
    JOIN clicks c ON c.product_id = p.product_id AND c.user_id = p.user_id
    WHERE p.user_id IS NOT NULL AND c.user_id IS NOT NULL
),
credited AS (
    SELECT count(*) AS attributed_purchases
    FROM (
        SELECT DISTINCT event_id, product_id
        FROM candidates
        WHERE purchase_ms - click_ms >= 0 AND purchase_ms - click_ms <= 604800000
    ) AS credited_pairs
),
purchased AS (
    SELECT count(*) AS purchased_products FROM actuate_purchase_products
),
counted AS (
    SELECT
        sum(CASE WHEN event_type = 'executed' THEN 1 ELSE 0 END) AS impressions,
        sum(CASE WHEN event_type = 'target' THEN 1 ELSE 0 END) AS clicks,
        sum(CASE WHEN event_type = 'close' THEN 1 ELSE 0 END) AS closes,
        sum(CASE WHEN event_type = 'product' THEN 1 ELSE 0 END) AS product_clicks,
        sum(CASE WHEN event_type = 'article' THEN 1 ELSE 0 END) AS article_clicks,
        sum(CASE WHEN event_type = 'error' THEN 1 ELSE 0 END) AS errors,
        count(DISTINCT CASE WHEN event_type = 'executed' THEN session_id END) AS sessions_with_impression,
        count(DISTINCT CASE WHEN event_type = 'target' THEN session_id END) AS sessions_with_click
    FROM content_events
)
SELECT
    coalesce(c.impressions, 0) AS impressions, coalesce(c.clicks, 0) AS clicks, coalesce(c.closes, 0) AS closes,
    coalesce(c.product_clicks, 0) AS product_clicks, coalesce(c.article_clicks, 0) AS article_clicks,
    coalesce(c.errors, 0) AS errors, c.sessions_with_impression AS sessions_with_impression,
    c.sessions_with_click AS sessions_with_click, a.attributed_purchases AS attributed_purchases,
    p.purchased_products AS purchased_products,
    CASE WHEN c.impressions > 0 THEN CAST(c.clicks AS DOUBLE) / c.impressions END AS click_through_rate,
    wilson_lower(c.clicks, c.impressions) AS click_through_rate_lower,
    wilson_upper(c.clicks, c.impressions) AS click_through_rate_upper,
    CASE WHEN c.impressions > 0 THEN CAST(c.closes AS DOUBLE) / c.impressions END AS close_rate,
    wilson_lower(c.closes, c.impressions) AS close_rate_lower,
    wilson_upper(c.closes, c.impressions) AS close_rate_upper,
    CASE WHEN c.sessions_with_impression > 0
        THEN CAST(c.sessions_with_click AS DOUBLE) / c.sessions_with_impression END AS visit_click_through_rate,
    wilson_lower(c.sessions_with_click, c.sessions_with_impression) AS visit_click_through_rate_lower,
    wilson_upper(c.sessions_with_click, c.sessions_with_impression) AS visit_click_through_rate_upper,
    CASE WHEN p.purchased_products > 0
        THEN CAST(a.attributed_purchases AS DOUBLE) / p.purchased_products END AS contribution_rate
FROM counted c, credited a, purchased p;

-- name: campaigns
-- Each visitor (anonymous id) is in the group of their first impression of the campaign (executed: test,
-- control_impression: control) and converts with a purchase at or after it. Rates with Wilson's interval, lift with
-- Katz's log interval (0.5 added to every cell when a group has no or only conversions), the verdict, and the
-- visitors per group for alpha = 0.05 two-sided and 80% power.
WITH impressions AS (
    SELECT content_id AS campaign_id, anonymous_id, event_ms,
        CASE WHEN event_type = 'control_impression' THEN 1 ELSE 0 END AS is_control
    FROM actuate_facts
    WHERE content_source = 'campaign' AND content_id IS NOT NULL
        AND event_type IN ('executed', 'control_impression')
),
firsts AS (
    SELECT campaign_id, anonymous_id, event_ms AS first_ms, is_control
    FROM (
        SELECT campaign_id, anonymous_id, event_ms, is_control,
            row_number() OVER (PARTITION BY campaign_id, anonymous_id ORDER BY event_ms, is_control DESC) AS visit
        FROM impressions
    ) AS ordered
    WHERE visit = 1
),
goals AS (
    SELECT anonymous_id, max(event_ms) AS last_goal_ms
    FROM actuate_facts
    WHERE event_type = 'purchase'
    GROUP BY anonymous_id
),
visitors AS (
    SELECT f.campaign_id, f.is_control,
        CASE WHEN g.last_goal_ms IS NOT NULL AND g.last_goal_ms >= f.first_ms THEN 1 ELSE 0 END AS converted
    FROM firsts f
    LEFT JOIN goals g ON g.anonymous_id = f.anonymous_id
),
groups AS (
    SELECT campaign_id,
        sum(1 - is_control) AS test_visitors,
        sum(CASE WHEN is_control = 0 THEN converted ELSE 0 END) AS test_conversions,
        sum(is_control) AS control_visitors,
        sum(CASE WHEN is_control = 1 THEN converted ELSE 0 END) AS control_conversions
    FROM visitors
    GROUP BY campaign_id
),
rates AS (
    SELECT *,
        CASE WHEN test_visitors > 0 THEN CAST(test_conversions AS DOUBLE) / test_visitors END AS test_rate,
        CASE WHEN control_visitors > 0 THEN CAST(control_conversions AS DOUBLE) / control_visitors END AS control_rate,
        CASE WHEN test_conversions = 0 OR control_conversions = 0 OR test_conversions = test_visitors
            OR control_conversions = control_visitors THEN 0.5 ELSE 0.0 END AS correction
    FROM groups
),
katz AS (
    SELECT *,
        CASE WHEN test_visitors > 0 AND control_visitors > 0 THEN
            ln(((test_conversions + correction) / (test_visitors + 2 * correction))
                / ((control_conversions + correction) / (control_visitors + 2 * correction))) END AS log_ratio,
        CASE WHEN test_visitors > 0 AND control_visitors > 0 THEN
            1.959963984540054 * sqrt(greatest(0.0,
                1.0 / (test_conversions + correction) - 1.0 / (test_visitors + 2 * correction)
                + 1.0 / (control_conversions + correction) - 1.0 / (control_visitors + 2 * correction))) END
            AS margin,
        (test_rate + control_rate) / 2 AS mean_rate
    FROM rates
),
sized AS (
    SELECT *,
        exp(log_ratio - margin) - 1 AS lift_lower,
        exp(log_ratio + margin) - 1 AS lift_upper,
        CASE WHEN test_visitors > 0 AND control_visitors > 0 AND test_rate <> control_rate THEN
            ceil(power(1.959963984540054 * sqrt(2 * mean_rate * (1 - mean_rate))
                + 0.8416212335729143 * sqrt(test_rate * (1 - test_rate) + control_rate * (1 - control_rate)), 2)
                / power(test_rate - control_rate, 2)) END AS members_needed
    FROM katz
)
SELECT
    campaign_id, test_visitors, test_conversions, control_visitors, control_conversions,
    test_rate, wilson_lower(test_conversions, test_visitors) AS test_rate_lower,
    wilson_upper(test_conversions, test_visitors) AS test_rate_upper,
    control_rate, wilson_lower(control_conversions, control_visitors) AS control_rate_lower,
    wilson_upper(control_conversions, control_visitors) AS control_rate_upper,
    CASE WHEN control_rate > 0 THEN (test_rate - control_rate) / control_rate END AS lift,
    lift_lower, lift_upper,
    CASE WHEN lift_lower > 0 THEN 'better' WHEN lift_upper < 0 THEN 'worse' ELSE 'notDistinguishableYet' END
        AS verdict,
    CASE WHEN members_needed <= 1000000000000 THEN greatest(1, CAST(members_needed AS BIGINT)) END
        AS visitors_per_group_needed
FROM sized
ORDER BY campaign_id;

-- name: actions
-- action_ended events by analyticsId: completions, failures, cancellations, the failure rate with Wilson's interval,
-- where they came from, and the exact nearest-rank median and 95th percentile of their durations.
WITH ended AS (
    SELECT analytics_id, action_name, feature_path, action_outcome, duration_seconds, event_ms,
        coalesce(arrival_source, 'application') AS arrival_source
    FROM actuate_facts
    WHERE event_type = 'action_ended' AND analytics_id IS NOT NULL
),
durations AS (
    SELECT analytics_id, duration_seconds,
        row_number() OVER (PARTITION BY analytics_id ORDER BY duration_seconds) AS position,
        count(*) OVER (PARTITION BY analytics_id) AS measured
    FROM ended
    WHERE duration_seconds IS NOT NULL AND duration_seconds >= 0
),
quantiles AS (
    SELECT analytics_id,
        max(CASE WHEN position = greatest(1, least(measured, CAST(ceil(0.5 * measured) AS BIGINT)))
            THEN duration_seconds END) AS median_duration_seconds,
        max(CASE WHEN position = greatest(1, least(measured, CAST(ceil(0.95 * measured) AS BIGINT)))
            THEN duration_seconds END) AS p95_duration_seconds
    FROM durations
    GROUP BY analytics_id
),
named AS (
    SELECT analytics_id, action_name, feature_path
    FROM (
        SELECT analytics_id, action_name, feature_path,
            row_number() OVER (PARTITION BY analytics_id ORDER BY event_ms DESC) AS latest
        FROM ended
    ) AS ordered
    WHERE latest = 1
),
counted AS (
    SELECT analytics_id,
        count(*) AS performed,
        sum(CASE WHEN action_outcome = 'failure' THEN 1 ELSE 0 END) AS failed,
        sum(CASE WHEN action_outcome = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
        sum(CASE WHEN arrival_source NOT IN ('openURL', 'continueActivity', 'intent') THEN 1 ELSE 0 END)
            AS arrived_from_application,
        sum(CASE WHEN arrival_source = 'openURL' THEN 1 ELSE 0 END) AS arrived_from_url,
        sum(CASE WHEN arrival_source = 'continueActivity' THEN 1 ELSE 0 END) AS arrived_from_activity,
        sum(CASE WHEN arrival_source = 'intent' THEN 1 ELSE 0 END) AS arrived_from_intent
    FROM ended
    GROUP BY analytics_id
)
SELECT
    c.analytics_id AS analytics_id, coalesce(n.action_name, '') AS action_name,
    coalesce(n.feature_path, '') AS feature_path, c.performed AS performed, c.failed AS failed,
    c.cancelled AS cancelled,
    CAST(c.failed AS DOUBLE) / c.performed AS failure_rate,
    wilson_lower(c.failed, c.performed) AS failure_rate_lower,
    wilson_upper(c.failed, c.performed) AS failure_rate_upper,
    q.median_duration_seconds AS median_duration_seconds, q.p95_duration_seconds AS p95_duration_seconds,
    c.arrived_from_application AS arrived_from_application, c.arrived_from_url AS arrived_from_url,
    c.arrived_from_activity AS arrived_from_activity, c.arrived_from_intent AS arrived_from_intent
FROM counted c
LEFT JOIN named n ON n.analytics_id = c.analytics_id
LEFT JOIN quantiles q ON q.analytics_id = c.analytics_id
ORDER BY c.analytics_id;
