WITH t(n, x, s, e, m) AS (VALUES
 (1, '1.25', 'abc', 5, 'a'),
 (2, '1e+20', 'héllo wörld', 6, 'b'),
 (3, '3', 'x', 7, 1),
 (4, '3.5', 'y', 8, 2),
 (5, '123456789012', 'a much longer text value that will need clipping later', 9, 'c'),
 (6, '-0.000', '', NULL, 3),
 (7, '+5', '12', 100000, ''),
 (8, '5.', '13', 1e5, NULL),
 (9, '1.5E+07', '14', -0, 4.25),
 (10, '12345678901234567890123', '', 12345.678, 'd'),
 (11, '-0', 'q', 0.30000000000000004, 5),
 (12, '00', 'r', 1e-5, 6))
SELECT n AS "N", x AS "Numbers", s AS "Text", e AS "E:dur_ns", m AS "Mixed" FROM t
