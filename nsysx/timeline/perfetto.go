package timeline

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nsysx/nsysx/internal/atomicfile"
	"github.com/nsysx/nsysx/nsysx"
)

// WritePerfetto writes p's timeline, under f (nil: all of it), to w as a
// Trace Event Format JSON object ({"traceEvents": [...]}) that Perfetto's UI
// and chrome://tracing load. Timestamps are microseconds with nanosecond
// decimals, on the profile's clock. CUDA API calls, GPU work, NVTX push/pop
// ranges and OS runtime calls are complete events ("ph":"X"); NVTX
// start/end ranges are async pairs ("b"/"e"), marks instants ("i"); each API
// call that launched GPU work has a flow ("s" on the call, "f" with
// "bp":"e" on the work, one id per GPU operation). Events are written as
// they are read, so memory does not grow with the profile (see Walk).
func WritePerfetto(ctx context.Context, w io.Writer, p *nsysx.Profile, f *nsysx.Filter) (*Stats, error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	jw := &jsonSink{w: bw, pids: map[int64]bool{}}
	head := `{"displayTimeUnit":"ns","otherData":{"generator":"nsysx","profile":`
	bw.WriteString(head)
	bw.Write(appendString(nil, p.Path))
	bw.WriteString("},\"traceEvents\":[\n")
	st, err := Walk(ctx, p, f, jw)
	if err != nil {
		return nil, err
	}
	bw.WriteString("\n]}\n")
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return st, nil
}

// OutputPath is the file ExportPerfetto writes for base: BASE.json, or
// BASE.json.gz when gz is set or base ends in .gz; a base that already ends
// in .json or .json.gz keeps its name.
func OutputPath(base string, gz bool) (string, bool) {
	if strings.HasSuffix(base, ".gz") {
		base, gz = strings.TrimSuffix(base, ".gz"), true
	}
	base = strings.TrimSuffix(base, ".json")
	if gz {
		return base + ".json.gz", true
	}
	return base + ".json", false
}

// ExportPerfetto writes p's timeline to exactly one file, OutputPath(base,
// gz), gzipped when it ends in .gz. The trace is written to a temporary file
// in the same folder and renamed, so a failed export leaves nothing behind.
func ExportPerfetto(ctx context.Context, p *nsysx.Profile, base string, gz bool, f *nsysx.Filter) (string, *Stats, error) {
	path, gz := OutputPath(base, gz)
	if f != nil {
		if msg, err := f.Resolve(ctx, p.Profile); err != nil || msg != "" {
			if err == nil {
				err = &nsysx.SkipError{Msg: msg}
			}
			return "", nil, err
		}
	}
	var st *Stats
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		out := w
		var zw *gzip.Writer
		if gz {
			zw, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
			out = zw
		}
		var err error
		st, err = WritePerfetto(ctx, out, p, f)
		if err == nil && zw != nil {
			err = zw.Close()
		}
		return err
	})
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil {
		return "", nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return path, st, nil
}

// jsonSink writes events as Trace Event Format JSON objects.
type jsonSink struct {
	w    *bufio.Writer
	b    []byte
	n    int
	pids map[int64]bool
}

func (j *jsonSink) flush() error {
	if j.n > 0 {
		j.w.WriteString(",\n")
	}
	j.n++
	_, err := j.w.Write(j.b)
	return err
}

// meta writes a metadata event ("ph":"M").
func (j *jsonSink) meta(name string, pid, tid int64, key string, str string, num int64, isStr bool) error {
	b := append(j.b[:0], `{"ph":"M","name":"`...)
	b = append(b, name...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, pid, 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, tid, 10)
	b = append(b, `,"args":{"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	if isStr {
		b = appendString(b, str)
	} else {
		b = strconv.AppendInt(b, num, 10)
	}
	j.b = append(b, "}}"...)
	return j.flush()
}

func (j *jsonSink) Track(t *Track) error {
	if !j.pids[t.Pid] {
		j.pids[t.Pid] = true
		if err := j.meta("process_name", t.Pid, 0, "name", t.Process, 0, true); err != nil {
			return err
		}
		if err := j.meta("process_sort_index", t.Pid, 0, "sort_index", "", t.ProcessSort, false); err != nil {
			return err
		}
	}
	if err := j.meta("thread_name", t.Pid, t.Tid, "name", t.Thread, 0, true); err != nil {
		return err
	}
	return j.meta("thread_sort_index", t.Pid, t.Tid, "sort_index", "", t.ThreadSort, false)
}

// head starts an event object with its phase, category, name, ids and ts.
func (j *jsonSink) head(ph string, e *Event, ts int64) []byte {
	b := append(j.b[:0], `{"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","cat":"`...)
	b = append(b, category(e)...)
	b = append(b, `","name":`...)
	b = appendString(b, e.Name)
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, e.Track.Pid, 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, e.Track.Tid, 10)
	b = append(b, `,"ts":`...)
	return appendMicros(b, ts)
}

func category(e *Event) string {
	c := e.Kind.Category()
	if e.NCCL {
		c += ",nccl"
	}
	return c
}

func (j *jsonSink) Event(e *Event) error {
	switch e.Kind {
	case KindNVTXAsync:
		b := strconv.AppendInt(append(j.head("b", e, e.Start), `,"id":`...), e.ID, 10)
		j.b = j.args(b, e)
		if err := j.flush(); err != nil {
			return err
		}
		j.b = strconv.AppendInt(append(j.head("e", e, e.End), `,"id":`...), e.ID, 10)
		j.b = append(j.b, '}')
		return j.flush()
	case KindNVTXMark:
		j.b = j.args(append(j.head("i", e, e.Start), `,"s":"t"`...), e)
		return j.flush()
	}
	b := append(j.head("X", e, e.Start), `,"dur":`...)
	j.b = j.args(appendMicros(b, e.End-e.Start), e)
	if err := j.flush(); err != nil {
		return err
	}
	for _, id := range e.FlowOut {
		if err := j.flow("s", e, id); err != nil {
			return err
		}
	}
	if e.FlowIn != 0 {
		return j.flow("f", e, e.FlowIn)
	}
	return nil
}

// flow writes one end of an API-to-GPU flow arrow.
func (j *jsonSink) flow(ph string, e *Event, id int64) error {
	b := append(j.b[:0], `{"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","cat":"cuda_flow","name":"launch","id":`...)
	b = strconv.AppendInt(b, id, 10)
	if ph == "f" {
		b = append(b, `,"bp":"e"`...)
	}
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, e.Track.Pid, 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, e.Track.Tid, 10)
	b = append(b, `,"ts":`...)
	j.b = append(appendMicros(b, e.Start), '}')
	return j.flush()
}

// args appends the event's arguments and closes the object.
func (j *jsonSink) args(b []byte, e *Event) []byte {
	b = append(b, `,"args":{`...)
	first := true
	sep := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, k)
		b = append(b, ':')
	}
	if e.Domain != "" {
		sep("domain")
		b = appendString(b, e.Domain)
	}
	if e.HasColor {
		sep("color")
		b = append(b, fmt.Sprintf(`"#%06x"`, e.Color&0xFFFFFF)...)
	}
	for _, a := range e.Args {
		sep(a.Key)
		if a.IsStr {
			b = appendString(b, a.Str)
		} else {
			b = strconv.AppendInt(b, a.Int, 10)
		}
	}
	return append(b, '}', '}')
}

// appendMicros writes ns as microseconds with three decimals, exactly.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	if r := ns % 1000; r != 0 {
		b = append(b, '.', byte('0'+r/100), byte('0'+r/10%10), byte('0'+r%10))
	}
	return b
}

// appendString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
