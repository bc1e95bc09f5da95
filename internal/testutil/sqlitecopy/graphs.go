package sqlitecopy

import (
	"strconv"
	"testing"
)

// GraphSize is how many kernels of a stream GraphTraced makes one graph
// execution.
const GraphSize = 8

// GraphTraced copies the test profile name to dir/as as nsys would have
// exported it had its kernels run in CUDA graphs traced whole (nsys
// profile --cuda-graph-trace=graph): every run of GraphSize kernels of a
// stream (in start order) becomes one row of CUPTI_ACTIVITY_KIND_GRAPH_TRACE
// (the export's columns) from the first kernel's start to the latest end,
// with graph id 1, 2 or 3 (graph exec id 101..103) and the correlation id
// of the run's first launch, whose call is renamed cudaGraphLaunch; the
// kernel table is dropped. Memory operations stay.
func GraphTraced(t testing.TB, name, dir, as string) string {
	t.Helper()
	return Profile(t, name, dir, as,
		`CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL, end INTEGER NOT NULL,
			deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
			correlationId INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL, graphExecId INTEGER NOT NULL)`,
		`INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE
			SELECT min(start), max(end), deviceId, contextId, NULL, streamId, min(correlationId), globalPid, g % 3 + 1, g % 3 + 101
			FROM (SELECT *, (row_number() OVER (PARTITION BY globalPid, deviceId, streamId ORDER BY start, rowid) - 1) / `+strconv.Itoa(GraphSize)+` AS g
				FROM CUPTI_ACTIVITY_KIND_KERNEL)
			GROUP BY globalPid, deviceId, contextId, streamId, g ORDER BY min(start)`,
		`INSERT INTO StringIds (id, value) VALUES ((SELECT max(id) + 1 FROM StringIds), 'cudaGraphLaunch_v10000')`,
		`UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = (SELECT max(id) FROM StringIds)
			WHERE correlationId IN (SELECT correlationId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE)`,
		`DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL`)
}

// GraphNodeTraced copies the test profile name to dir/as as nsys would
// have exported it had its kernels run in CUDA graphs traced node by node
// (nsys profile --cuda-graph-trace=node) with an export that names graphs
// only in the graph tables: the kernels are grouped as GraphTraced groups
// them; the kernel at position k of a run of graph G (1, 2 or 3) ran for
// node 1000·G+k and has the correlation id of the run's first launch,
// whose call is renamed cudaGraphLaunch. Three cudaGraphInstantiate calls
// on the launching thread, before its first call, each record a
// CUDA_GRAPH_EVENTS row for graph G and a CUDA_GRAPH_NODE_EVENTS row per
// node 1000·G+k, made from node 500000+1000·G+k.
func GraphNodeTraced(t testing.TB, name, dir, as string) string {
	t.Helper()
	size := strconv.Itoa(GraphSize)
	return Profile(t, name, dir, as,
		`CREATE TEMP TABLE runs AS SELECT rowid AS r, correlationId AS corr, g % 3 + 1 AS graph, k,
			min(correlationId) OVER (PARTITION BY globalPid, deviceId, streamId, g) AS first
			FROM (SELECT rowid, correlationId, globalPid, deviceId, streamId,
				(row_number() OVER (PARTITION BY globalPid, deviceId, streamId ORDER BY start, rowid) - 1) / `+size+` AS g,
				(row_number() OVER (PARTITION BY globalPid, deviceId, streamId ORDER BY start, rowid) - 1) % `+size+` AS k
				FROM CUPTI_ACTIVITY_KIND_KERNEL)`,
		`CREATE INDEX runs_r ON runs (r)`,
		`INSERT INTO StringIds (id, value) VALUES ((SELECT max(id) + 1 FROM StringIds), 'cudaGraphLaunch_v10000')`,
		`UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = (SELECT max(id) FROM StringIds)
			WHERE correlationId IN (SELECT first FROM runs)`,
		`UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET graphNodeId = (SELECT 1000 * graph + k FROM runs WHERE r = CUPTI_ACTIVITY_KIND_KERNEL.rowid),
			correlationId = (SELECT first FROM runs WHERE r = CUPTI_ACTIVITY_KIND_KERNEL.rowid)`,
		`INSERT INTO StringIds (id, value) VALUES ((SELECT max(id) + 1 FROM StringIds), 'cudaGraphInstantiate_v12000')`,
		`CREATE TEMP TABLE inst AS SELECT graph, (SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid = l.globalTid) - 40000 + 10000 * graph AS s,
			l.globalTid AS tid
			FROM (SELECT DISTINCT graph FROM runs), (SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME
				WHERE correlationId = (SELECT min(first) FROM runs)) AS l`,
		`INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)
			SELECT s, s + 5000, 1, tid, 2000000000 + graph, (SELECT max(id) FROM StringIds), 0 FROM inst`,
		`CREATE TABLE CUDA_GRAPH_EVENTS (start INTEGER NOT NULL, end INTEGER, eventClass INTEGER NOT NULL,
			globalTid INTEGER, graphId INTEGER NOT NULL, originalGraphId INTEGER)`,
		`INSERT INTO CUDA_GRAPH_EVENTS SELECT s + 100, s + 100, 0, tid, graph, NULL FROM inst`,
		`CREATE TABLE CUDA_GRAPH_NODE_EVENTS (start INTEGER NOT NULL, end INTEGER, eventClass INTEGER NOT NULL,
			globalTid INTEGER, graphNodeId INTEGER NOT NULL, originalGraphNodeId INTEGER)`,
		`INSERT INTO CUDA_GRAPH_NODE_EVENTS SELECT DISTINCT s + 200 + k, s + 200 + k, 0, tid, 1000 * runs.graph + k, 500000 + 1000 * runs.graph + k
			FROM runs JOIN inst ON inst.graph = runs.graph`)
}
