WITH t(v) AS (VALUES ('1.23456789'),(1.23456789),('+5'),('5.'),('1e5'),('-0'),('-0.0'),(0.1),(1e-7),(123456789012345678),('1e999'),('-12345678901234567890123'),(2.5e-8),(-3),(0.3),(1234567))
SELECT v AS "A:dur_us", v AS "B:mem_KB", v AS "C:dur_ns", v AS "D:mem_B", v AS "E:ts_sec", v AS "F:mem_KiB", v AS "G:dur_ms" FROM t
