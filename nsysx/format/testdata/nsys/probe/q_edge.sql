SELECT 1234567 AS "A:dur_", 1234567 AS "B:mem_", 'x' AS "C", 1234567 AS "D:addr_", 5 AS "E:gid_"
