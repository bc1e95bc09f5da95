package events

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// Sync is one host synchronisation or stream wait traced by CUPTI
// (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION): the API call it belongs to (by
// correlation id), the stream it names and the CUDA event it waits for
// (EventID and EventSync identify one record of that event).
type Sync struct {
	Start, End  int64
	Correlation int64
	Process     model.GlobalTid
	Stream      int64 // -1 when none
	Type        int64 // ENUM_CUPTI_SYNC_TYPE
	EventID     int64 // -1 when none
	EventSync   int64 // -1 when none
}

// EventRecord is one record of a CUDA event on a stream
// (CUPTI_ACTIVITY_KIND_CUDA_EVENT): the cudaEventRecord call's correlation
// id, the stream, and the event and record ids that a Sync names.
type EventRecord struct {
	Correlation int64
	Process     model.GlobalTid
	Stream      int64
	EventID     int64
	EventSync   int64
}

// Syncs reads the synchronisation records of p in table order; an export
// without the table has none.
func Syncs(ctx context.Context, p *model.Profile) ([]Sync, error) {
	var out []Sync
	cols := []string{"start", "end", "correlationId", "globalPid", "streamId", "syncType", "eventId", "eventSyncId"}
	err := eachRow(ctx, p, TableSynchronization, cols, func(f *model.Fields) error {
		out = append(out, Sync{Start: intOr(f, 0, 0), End: intOr(f, 1, 0), Correlation: intOr(f, 2, 0),
			Process: model.GlobalTid(intOr(f, 3, 0)), Stream: intOr(f, 4, -1), Type: intOr(f, 5, 0),
			EventID: intOr(f, 6, -1), EventSync: intOr(f, 7, -1)})
		return nil
	})
	return out, err
}

// EventRecords reads the CUDA event records of p in table order; an export
// without the table (older nsys) has none.
func EventRecords(ctx context.Context, p *model.Profile) ([]EventRecord, error) {
	var out []EventRecord
	cols := []string{"correlationId", "globalPid", "streamId", "eventId", "eventSyncId"}
	err := eachRow(ctx, p, TableCUDAEvent, cols, func(f *model.Fields) error {
		out = append(out, EventRecord{Correlation: intOr(f, 0, 0), Process: model.GlobalTid(intOr(f, 1, 0)),
			Stream: intOr(f, 2, -1), EventID: intOr(f, 3, -1), EventSync: intOr(f, 4, -1)})
		return nil
	})
	return out, err
}
