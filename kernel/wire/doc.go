// Package wire implements the transport side of the Jupyter messaging
// protocol (version 5.4) on top of zmq4 (github.com/go-zeromq/zmq4 v0.17.0,
// copied into third_party/zmq4 with a bound on the size of received
// messages: docs/kernel-security.md).
//
// It parses connection files, binds the five kernel sockets (shell, control
// and stdin ROUTERs, the iopub PUB and the heartbeat echo), frames and signs
// messages with HMAC-SHA256, verifies incoming signatures in constant time
// and drops replays (a signature seen before), and dispatches shell and
// control requests to a Handler while publishing status busy/idle around
// each of them. content.go has the content of each message type as a
// struct.
//
// The package knows nothing about code execution: the kernel package (one
// level up) gives the messages their meaning.
package wire
