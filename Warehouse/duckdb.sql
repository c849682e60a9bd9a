-- DuckDB: what differs from the common statistics.sql. {files} is replaced by the NDJSON files' list, such as
-- ['events.ndjson']. The helpers have the same names and meanings in clickhouse.sql.
CREATE OR REPLACE TABLE actuate_events AS
SELECT * FROM read_json(
    {files},
    format = 'newline_delimited',
    columns = {
        event_id: 'VARCHAR', event_type: 'VARCHAR', event_time: 'TIMESTAMP', session_id: 'VARCHAR',
        anonymous_id: 'VARCHAR', user_id: 'VARCHAR', content_source: 'VARCHAR', content_id: 'VARCHAR',
        content_name: 'VARCHAR', campaign_id: 'VARCHAR', is_control_group: 'BOOLEAN', action_name: 'VARCHAR',
        action_outcome: 'VARCHAR', properties: 'VARCHAR'
    }
);

-- A property when it is a JSON string (a number or an object is not a string: NULL, as in Swift).
CREATE OR REPLACE MACRO prop_string(props, key) AS
    CASE WHEN json_type(props, '$.' || key) = 'VARCHAR' THEN json_extract_string(props, '$.' || key) END;

-- A property when it is a JSON number.
CREATE OR REPLACE MACRO prop_number(props, key) AS
    CASE WHEN json_type(props, '$.' || key) IN ('DOUBLE', 'BIGINT', 'UBIGINT')
        THEN CAST(json_extract(props, '$.' || key) AS DOUBLE) END;

-- Wilson's 95% score interval of x successes in n trials (NULL without trials).
CREATE OR REPLACE MACRO wilson_lower(x, n) AS
    CASE WHEN n > 0 THEN greatest(0.0, least(CAST(x AS DOUBLE) / n,
        (CAST(x AS DOUBLE) / n + 1.959963984540054 * 1.959963984540054 / (2.0 * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n)
        - 1.959963984540054 * sqrt((CAST(x AS DOUBLE) / n) * (1.0 - CAST(x AS DOUBLE) / n) / n
            + 1.959963984540054 * 1.959963984540054 / (4.0 * n * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n))) END;

CREATE OR REPLACE MACRO wilson_upper(x, n) AS
    CASE WHEN n > 0 THEN least(1.0, greatest(CAST(x AS DOUBLE) / n,
        (CAST(x AS DOUBLE) / n + 1.959963984540054 * 1.959963984540054 / (2.0 * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n)
        + 1.959963984540054 * sqrt((CAST(x AS DOUBLE) / n) * (1.0 - CAST(x AS DOUBLE) / n) / n
            + 1.959963984540054 * 1.959963984540054 / (4.0 * n * n))
            / (1.0 + 1.959963984540054 * 1.959963984540054 / n))) END;

-- Every event with the properties the statistics read, and its time in milliseconds since 1970.
CREATE OR REPLACE VIEW actuate_facts AS
SELECT
    *,
    epoch_ms(event_time) AS event_ms,
    prop_string(properties, 'productId') AS product_id,
    prop_number(properties, 'durationSeconds') AS duration_seconds,
    prop_string(properties, 'analyticsId') AS analytics_id,
    prop_string(properties, 'feature') AS feature_path,
    prop_string(properties, 'source') AS arrival_source
FROM actuate_events;

-- One row per purchase and product bought: productIds' strings and productId, each once, empty ones left out.
CREATE OR REPLACE VIEW actuate_purchase_products AS
SELECT DISTINCT event_id, anonymous_id, user_id, event_ms, product_id
FROM (
    SELECT event_id, anonymous_id, user_id, event_ms, unnest(ids) AS product_id
    FROM (
        SELECT
            event_id, anonymous_id, user_id, event_ms,
            list_concat(
                CASE WHEN json_type(properties, '$.productIds') = 'ARRAY'
                    THEN json_extract_string(properties, '$.productIds[*]') ELSE [] END,
                CASE WHEN product_id IS NOT NULL THEN [product_id] ELSE [] END
            ) AS ids
        FROM actuate_facts
        WHERE event_type = 'purchase'
    )
)
WHERE product_id IS NOT NULL AND product_id <> '';
