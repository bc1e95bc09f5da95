WITH t(a,b,c) AS (VALUES ('x','1.5','1e5'),('y','22','q'),('z','abc','r'),('1.25','def','s'),('22.125','ghi','12.5'),(3,'jkl',7))
SELECT a AS "A", b AS "B", c AS "Col C" FROM t
