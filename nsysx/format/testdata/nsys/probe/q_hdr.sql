SELECT 1 AS "A very long header name here", 'x' AS "Another long header", 2.5 AS "B:dur_ns"
