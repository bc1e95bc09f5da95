WITH t(a, b) AS (VALUES (1, 'short'), (2, 'xx'), (3, 'a text that is much wider than the earlier rows of this table'), (4444444, 'z'))
SELECT a AS "A", b AS "Name" FROM t
