-- ClickHouse (and chDB, its engine in-process): what differs from the common statistics.sql. A statement that holds
-- {file} runs once per NDJSON file, with the file's path in its place. The helpers have the same names and
-- meanings in duckdb.sql. On a cluster, use MergeTree (ReplacingMergeTree ORDER BY event_id keeps one row per id).
CREATE TABLE actuate_events (
    event_id String,
    event_type String,
    event_time DateTime64(3, 'UTC'),
    session_id String,
    anonymous_id String,
    user_id Nullable(String),
    content_source Nullable(String),
    content_id Nullable(String),
    content_name Nullable(String),
    campaign_id Nullable(String),
    is_control_group Nullable(Bool),
    action_name Nullable(String),
    action_outcome Nullable(String),
    properties String
) ENGINE = Memory;

INSERT INTO actuate_events
SELECT * FROM file('{file}', 'JSONEachRow',
    'event_id String, event_type String, event_time DateTime64(3, ''UTC''), session_id String,
     anonymous_id String, user_id Nullable(String), content_source Nullable(String), content_id Nullable(String),
     content_name Nullable(String), campaign_id Nullable(String), is_control_group Nullable(Bool),
     action_name Nullable(String), action_outcome Nullable(String), properties String')
SETTINGS date_time_input_format = 'best_effort';

-- A property when it is a JSON string (a number or an object is not a string: NULL, as in Swift).
CREATE OR REPLACE FUNCTION prop_string AS (props, key) ->
    if(JSONType(props, key) = 'String', JSONExtractString(props, key), NULL);

-- A property when it is a JSON number.
CREATE OR REPLACE FUNCTION prop_number AS (props, key) ->
    if(JSONType(props, key) IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(props, key), NULL);

-- Wilson's 95% score interval of x successes in n trials (NULL without trials).
CREATE OR REPLACE FUNCTION wilson_lower AS (x, n) ->
    if(n > 0, greatest(0.0, least(toFloat64(x) / n,
        (toFloat64(x) / n + 1.959963984540054 * 1.959963984540054 / (2.0 * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n)
        - 1.959963984540054 * sqrt((toFloat64(x) / n) * (1.0 - toFloat64(x) / n) / n
            + 1.959963984540054 * 1.959963984540054 / (4.0 * n * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n))), NULL);

CREATE OR REPLACE FUNCTION wilson_upper AS (x, n) ->
    if(n > 0, least(1.0, greatest(toFloat64(x) / n,
        (toFloat64(x) / n + 1.959963984540054 * 1.959963984540054 / (2.0 * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n)
        + 1.959963984540054 * sqrt((toFloat64(x) / n) * (1.0 - toFloat64(x) / n) / n
            + 1.959963984540054 * 1.959963984540054 / (4.0 * n * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n))), NULL);

-- Every event with the properties the statistics read, and its time in milliseconds since 1970.
CREATE VIEW actuate_facts AS
SELECT
    *,
    toUnixTimestamp64Milli(event_time) AS event_ms,
    prop_string(properties, 'productId') AS product_id,
    prop_number(properties, 'durationSeconds') AS duration_seconds,
    prop_string(properties, 'analyticsId') AS analytics_id,
    prop_string(properties, 'feature') AS feature_path,
    prop_string(properties, 'source') AS arrival_source
FROM actuate_events;

-- One row per purchase and product bought: productIds' strings and productId, each once, empty ones left out.
CREATE VIEW actuate_purchase_products AS
SELECT DISTINCT event_id, anonymous_id, user_id, event_ms, bought AS product_id
FROM (
    SELECT event_id, anonymous_id, user_id, event_ms,
        arrayJoin(arrayConcat(
            if(JSONType(properties, 'productIds') = 'Array', JSONExtract(properties, 'productIds', 'Array(String)'), []),
            if(product_id IS NULL, [], [assumeNotNull(product_id)])
        )) AS bought
    FROM actuate_facts
    WHERE event_type = 'purchase'
)
WHERE bought <> '';
