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
