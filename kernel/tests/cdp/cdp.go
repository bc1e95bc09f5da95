// Package cdp drives a headless Chromium through the Chrome DevTools
// Protocol, just enough for the kernel's notebook test: open a page,
// evaluate JavaScript, take a screenshot.
package cdp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/websocket"
)

// Browser is a headless Chromium with one page.
type Browser struct {
	cmd  *exec.Cmd
	ws   *websocket.Conn
	mu   sync.Mutex
	next int
	log  bytes.Buffer // Chromium's output, for errors
}

// Start launches chromium (the binary path) headless with a fresh profile
// in userDataDir and a window of width×height pixels, and connects to its
// page. It gives up when ctx ends.
func Start(ctx context.Context, chromium, userDataDir string, width, height int) (*Browser, error) {
	b := &Browser{}
	b.cmd = exec.Command(chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir="+userDataDir, "--remote-debugging-port=0",
		"--remote-allow-origins=http://127.0.0.1",
		fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	b.cmd.Stdout, b.cmd.Stderr = &b.log, &b.log
	if err := b.cmd.Start(); err != nil {
		return nil, err
	}
	port, err := devToolsPort(ctx, userDataDir)
	if err == nil {
		err = b.connect(ctx, port)
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("chromium: %w\n%s", err, b.output())
	}
	return b, nil
}

func (b *Browser) output() string {
	s := b.log.String()
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return s
}

// devToolsPort waits for Chromium to write DevToolsActivePort.
func devToolsPort(ctx context.Context, dir string) (string, error) {
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				return port, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", errors.New("no DevToolsActivePort: " + ctx.Err().Error())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// connect finds the page target and opens its websocket.
func (b *Browser) connect(ctx context.Context, port string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://127.0.0.1:"+port+"/json/list", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var targets []struct{ Type, WebSocketDebuggerURL string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		return err
	}
	for _, t := range targets {
		if t.Type == "page" {
			b.ws, err = websocket.Dial(t.WebSocketDebuggerURL, "", "http://127.0.0.1")
			if err != nil {
				return err
			}
			b.ws.MaxPayloadBytes = 256 << 20
			return nil
		}
	}
	return errors.New("no page target")
}

// Call sends a CDP command and decodes its result into result (if not nil).
func (b *Browser) Call(ctx context.Context, method string, params, result any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	id := b.next
	if params == nil {
		params = map[string]any{}
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(time.Minute)
	}
	_ = b.ws.SetDeadline(deadline)
	if err := websocket.JSON.Send(b.ws, map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return err
	}
	for {
		var msg struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := websocket.JSON.Receive(b.ws, &msg); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if msg.ID != id { // an event
			continue
		}
		if msg.Error != nil {
			return fmt.Errorf("%s: %s", method, msg.Error.Message)
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(msg.Result, result)
	}
}

// Navigate opens url in the page.
func (b *Browser) Navigate(ctx context.Context, url string) error {
	return b.Call(ctx, "Page.navigate", map[string]any{"url": url}, nil)
}

// Eval evaluates a JavaScript expression (awaiting promises) and decodes
// its JSON value into result.
func (b *Browser) Eval(ctx context.Context, expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := b.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("javascript: %s %s", r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if result == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, result)
}

// WaitFor evaluates a boolean expression every interval until it is true
// or ctx ends.
func (b *Browser) WaitFor(ctx context.Context, expr string, interval time.Duration) error {
	for {
		var ok bool
		err := b.Eval(ctx, "Boolean("+expr+")", &ok)
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %v (last error %v)", expr, ctx.Err(), err)
		case <-time.After(interval):
		}
	}
}

// Screenshot returns a PNG of the page's viewport.
func (b *Browser) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct{ Data string }
	if err := b.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// Close stops Chromium (the process Start launched) and waits for it.
func (b *Browser) Close() {
	if b.ws != nil {
		b.ws.Close()
	}
	if b.cmd.Process != nil {
		_ = b.cmd.Process.Kill()
		done := make(chan struct{})
		go func() { _ = b.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
	}
}
