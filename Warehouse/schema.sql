-- The flat table of Actuate events, one row per event, as `actuate export SOURCE... --ndjson OUT` writes it
-- (one JSON object per line) and a warehouse's load job takes it. Standard SQL; the engines' own forms are in
-- duckdb.sql and clickhouse.sql, and the article "Reporting across your users" gives BigQuery's and Snowflake's.
--
-- Every event id appears once: `actuate export` drops the repeats at-least-once delivery makes. A table loaded
-- from collector files by other means should keep one row per event_id (a MERGE, or ReplacingMergeTree).
CREATE TABLE actuate_events (
    event_id         VARCHAR   NOT NULL,  -- the event's UUID (Segment's messageId), upper case
    event_type       VARCHAR   NOT NULL,  -- executed, target, close, product, article, error, purchase,
                                          -- control_impression, action_ended, url_opened, ...
    event_time       TIMESTAMP NOT NULL,  -- UTC, milliseconds
    session_id       VARCHAR   NOT NULL,  -- the reporting session (1.5 h of inactivity ends one)
    anonymous_id     VARCHAR   NOT NULL,  -- the installation, stable across launches
    user_id          VARCHAR,             -- the identified user, when the app identified one
    content_source   VARCHAR,             -- property contentSource: action, contentBlock, campaign, appAction, ...
    content_id       VARCHAR,             -- property actionId: the content's (or campaign's) id
    content_name     VARCHAR,             -- property actionName
    campaign_id      VARCHAR,             -- content_id when content_source = 'campaign'
    is_control_group BOOLEAN,             -- campaign events only: a control-group impression
    action_name      VARCHAR,             -- property action (action_ended events: the action's name)
    action_outcome   VARCHAR,             -- property outcome (action_ended events: success, failure, cancelled)
    properties       VARCHAR   NOT NULL   -- every other property, as a JSON object's text
);
