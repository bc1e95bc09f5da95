WITH t(v) AS (VALUES ('true'),('false'),('null'),('TRUE'),('+5'),('5.'),('1e5'),('a"b\c'||char(9)||'d'),('line'||char(10)||'break'),(''),(NULL),('<&>"'''),('x,y'),('q"x'),('a,"b"'),('  sp  '),('é€'),('-0'),('1E5'),(char(13)||'cr'))
SELECT v AS "Val:dur_ns", v AS "K""ey<&>,	t" FROM t
