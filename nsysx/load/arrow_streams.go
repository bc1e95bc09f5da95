package load

// Splitting a single .arrow/.arrows file of concatenated IPC streams into its
// streams, for arrowSource (see source_arrow.go).

import (
	"errors"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// ipcStream is one stream of such a file: its schema and byte range.
type ipcStream struct {
	schema *arrow.Schema
	part   tablePart
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// scanStreams walks the messages of a file of concatenated IPC streams and
// returns each stream's schema and byte range. A stream ends at an
// end-of-stream marker, at the next schema message, or at the end of file.
func (s *arrowSource) scanStreams(f *os.File, size int64) ([]ipcStream, error) {
	var out []ipcStream
	var cur *ipcStream
	end := func(at int64) {
		if cur != nil {
			cur.part.n = at - cur.part.off
			out = append(out, *cur)
			cur = nil
		}
	}
	off := int64(0)
	for off < size {
		cr := &countingReader{r: io.NewSectionReader(f, off, size-off)}
		mr := ipc.NewMessageReader(cr, ipc.WithAllocator(s.mem), ipc.WithBodySizeLimit(size), ipc.WithMetadataSizeLimit(size))
		for {
			at := off + cr.n
			msg, err := mr.Message()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				mr.Release()
				return nil, err
			}
			switch msg.Type() {
			case ipc.MessageSchema:
				end(at)
				if err := checkMessage(f, at, size); err != nil {
					mr.Release()
					return nil, err
				}
				r, err := ipc.NewReader(io.NewSectionReader(f, at, size-at), ipc.WithAllocator(s.mem))
				if err != nil {
					mr.Release()
					return nil, err
				}
				cur = &ipcStream{schema: r.Schema(), part: tablePart{kind: ipcStreamPart, off: at}}
				r.Release()
			case ipc.MessageRecordBatch, ipc.MessageDictionaryBatch:
				if cur == nil {
					mr.Release()
					return nil, errors.New("record batch before any schema")
				}
			}
		}
		mr.Release()
		end(off + cr.n)
		if cr.n == 0 {
			break
		}
		off += cr.n
	}
	return out, nil
}
