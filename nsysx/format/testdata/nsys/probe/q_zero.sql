SELECT 1 AS "A:dur_ns", 'x' AS "Name" WHERE 0
