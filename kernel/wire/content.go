package wire

import "encoding/json"

// The content types of the Jupyter messaging protocol 5.4 that the kernel
// reads and writes, one struct per message type. MIME bundles and
// metadata are open dictionaries (map[string]any); everything else is a
// field. Requests are decoded into these types; replies and iopub
// messages are encoded from them.

// Content is the content of a message the kernel publishes (iopub) or
// sends on stdin: its msg_type goes with it.
type Content interface {
	MsgType() string
}

// Reply statuses.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusAborted = "aborted"
)

// ExecuteRequest is the content of execute_request.
type ExecuteRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

// ExecuteReply is the content of an execute_reply with status "ok".
type ExecuteReply struct {
	Status          string         `json:"status"`
	ExecutionCount  int            `json:"execution_count"`
	UserExpressions map[string]any `json:"user_expressions"` // name -> ExpressionResult or ErrorReply
	Payload         []Payload      `json:"payload"`
}

// ExecuteError is the content of an execute_reply with status "error".
type ExecuteError struct {
	ErrorReply
	ExecutionCount int `json:"execution_count"`
}

// ExecuteAborted is the content of an execute_reply with status
// "aborted" (a request queued behind a failed one, stop_on_error).
type ExecuteAborted struct {
	Status         string `json:"status"`
	ExecutionCount int    `json:"execution_count"`
}

// Bundle is a MIME bundle (MIME type -> data) and its metadata, as
// displays, results and user expressions carry them.
type Bundle struct {
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

// ExpressionResult is the value of one user expression.
type ExpressionResult struct {
	Status string `json:"status"`
	Bundle
}

// Payload is an execute_reply payload; the kernel sends only "page" (help).
type Payload struct {
	Source string         `json:"source"`
	Data   map[string]any `json:"data"`
	Start  int            `json:"start"`
}

// ErrorReply is the content of any reply with status "error".
type ErrorReply struct {
	Status    string   `json:"status"`
	Ename     string   `json:"ename"`
	Evalue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

// NewErrorReply returns an error reply whose traceback is one line.
func NewErrorReply(ename, evalue string) ErrorReply {
	return ErrorReply{Status: StatusError, Ename: ename, Evalue: evalue, Traceback: []string{ename + ": " + evalue}}
}

// KernelInfoReply is the content of kernel_info_reply.
type KernelInfoReply struct {
	Status                string       `json:"status"`
	ProtocolVersion       string       `json:"protocol_version"`
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	LanguageInfo          LanguageInfo `json:"language_info"`
	Banner                string       `json:"banner"`
	HelpLinks             []HelpLink   `json:"help_links"`
	SupportedFeatures     []string     `json:"supported_features"`
	Debugger              bool         `json:"debugger"`
}

// LanguageInfo describes the kernel's language in kernel_info_reply.
type LanguageInfo struct {
	Name              string `json:"name"`
	Version           string `json:"version"`
	Mimetype          string `json:"mimetype"`
	FileExtension     string `json:"file_extension"`
	PygmentsLexer     string `json:"pygments_lexer"`
	CodemirrorMode    string `json:"codemirror_mode"`
	NbconvertExporter string `json:"nbconvert_exporter"`
}

// HelpLink is a link of the frontend's help menu.
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// CompleteRequest is the content of complete_request; InspectRequest of
// inspect_request (DetailLevel 0 or 1). Cursor positions count Unicode
// code points.
type CompleteRequest struct {
	Code      string `json:"code"`
	CursorPos int    `json:"cursor_pos"`
}

// InspectRequest is the content of inspect_request.
type InspectRequest struct {
	Code        string `json:"code"`
	CursorPos   int    `json:"cursor_pos"`
	DetailLevel int    `json:"detail_level"`
}

// CompleteReply is the content of complete_reply.
type CompleteReply struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Metadata    map[string]any `json:"metadata"`
}

// InspectReply is the content of inspect_reply.
type InspectReply struct {
	Status   string         `json:"status"`
	Found    bool           `json:"found"`
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

// IsCompleteRequest is the content of is_complete_request.
type IsCompleteRequest struct {
	Code string `json:"code"`
}

// IsCompleteReply is the content of is_complete_reply; Indent is set
// with status "incomplete" only.
type IsCompleteReply struct {
	Status string  `json:"status"`
	Indent *string `json:"indent,omitempty"`
}

// HistoryRequest is the content of history_request.
type HistoryRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// HistoryReply is the content of history_reply.
type HistoryReply struct {
	Status  string         `json:"status"`
	History []HistoryEntry `json:"history"`
}

// HistoryEntry is one history item: [session, line, input], or with
// output [session, line, [input, output]].
type HistoryEntry struct {
	Session, Line int
	Input         string
	Output        *string
}

// MarshalJSON writes the entry as the protocol's tuple.
func (h HistoryEntry) MarshalJSON() ([]byte, error) {
	if h.Output != nil {
		return json.Marshal([]any{h.Session, h.Line, []string{h.Input, *h.Output}})
	}
	return json.Marshal([]any{h.Session, h.Line, h.Input})
}

// CommInfoReply is the content of comm_info_reply.
type CommInfoReply struct {
	Status string              `json:"status"`
	Comms  map[string]CommInfo `json:"comms"`
}

// CommInfo describes an open comm.
type CommInfo struct {
	TargetName string `json:"target_name"`
}

// CommOpen is the content of comm_open; CommClose of comm_close.
type CommOpen struct {
	CommID     string         `json:"comm_id"`
	TargetName string         `json:"target_name"`
	Data       map[string]any `json:"data"`
}

// CommClose is the content of comm_close.
type CommClose struct {
	CommID string         `json:"comm_id"`
	Data   map[string]any `json:"data"`
}

// ShutdownRequest is the content of shutdown_request.
type ShutdownRequest struct {
	Restart bool `json:"restart"`
}

// ShutdownReply is the content of shutdown_reply, also published on iopub.
type ShutdownReply struct {
	Status  string `json:"status"`
	Restart bool   `json:"restart"`
}

// StatusReply is the content of a reply that has only a status
// (interrupt_reply).
type StatusReply struct {
	Status string `json:"status"`
}

// Status is the iopub message of the kernel's execution state.
type Status struct {
	ExecutionState string `json:"execution_state"` // starting, busy or idle
}

// Stream is text written to stdout or stderr.
type Stream struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Transient is the transient part of a display.
type Transient struct {
	DisplayID string `json:"display_id,omitempty"`
}

// DisplayData is a display_data message.
type DisplayData struct {
	Bundle
	Transient Transient `json:"transient"`
}

// UpdateDisplayData replaces the display of Transient.DisplayID.
type UpdateDisplayData DisplayData

// ExecuteResult is the value of a cell (Out[n]).
type ExecuteResult struct {
	ExecutionCount int `json:"execution_count"`
	Bundle
}

// Error is the iopub error message of a failed cell.
type Error struct {
	Ename     string   `json:"ename"`
	Evalue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

// ExecuteInput announces the code being run.
type ExecuteInput struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

// ClearOutput clears the cell's output (with Wait, once new output comes).
type ClearOutput struct {
	Wait bool `json:"wait"`
}

// InputRequest asks the frontend for a line (stdin channel).
type InputRequest struct {
	Prompt   string `json:"prompt"`
	Password bool   `json:"password"`
}

// InputReply is the frontend's answer to an InputRequest.
type InputReply struct {
	Value string `json:"value"`
}

// MsgType implements Content.
func (Status) MsgType() string            { return "status" }
func (Stream) MsgType() string            { return "stream" }
func (DisplayData) MsgType() string       { return "display_data" }
func (UpdateDisplayData) MsgType() string { return "update_display_data" }
func (ExecuteResult) MsgType() string     { return "execute_result" }
func (Error) MsgType() string             { return "error" }
func (ExecuteInput) MsgType() string      { return "execute_input" }
func (ClearOutput) MsgType() string       { return "clear_output" }
func (CommClose) MsgType() string         { return "comm_close" }
func (ShutdownReply) MsgType() string     { return "shutdown_reply" }
func (InputRequest) MsgType() string      { return "input_request" }
