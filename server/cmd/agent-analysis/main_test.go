package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// syncBuffer is the server's stdout, read by the test while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// logLines decodes the JSON log lines written so far.
func (s *syncBuffer) logLines() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(s.b.String()) {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

func waitFor[T any](t *testing.T, what string, f func() (T, bool)) T {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if v, ok := f(); ok {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
	panic("unreachable")
}

func TestShutdownEndsOpenStreamsAndExitsCleanly(t *testing.T) {
	web := t.TempDir()
	os.WriteFile(filepath.Join(web, "app.wasm"), []byte("\x00asm"), 0o644)
	ctx, stop := context.WithCancel(context.Background())
	var stdout syncBuffer
	result := make(chan error, 1)
	go func() {
		result <- run(ctx, []string{"-addr", "127.0.0.1:0", "-web", web, "-log-json"}, &stdout, io.Discard)
	}()

	pageURL := waitFor(t, "the listening line", func() (string, bool) {
		for _, l := range stdout.logLines() {
			if l["msg"] == "listening" {
				return l["url"].(string), true
			}
		}
		return "", false
	})
	base := strings.TrimSuffix(pageURL, "/agent-analysis")

	if resp, err := http.Get(base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	body := `{"threadId":"t","runId":"r","forwardedProps":{"scenario":"slow"}}`
	resp, err := http.Post(base+"/api/agent-analysis", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewReader(resp.Body)
	if first, err := lines.ReadString('\n'); err != nil || !strings.Contains(first, "RUN_STARTED") {
		t.Fatalf("first line %q, %v", first, err)
	}

	// The slow stream has seconds to go; shutdown must not wait for it.
	start := time.Now()
	stop()
	select {
	case err := <-result:
		if err != nil {
			t.Fatalf("run returned %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("shutdown waited for the open stream")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("shutdown took %v", took)
	}
	rest, _ := io.ReadAll(lines)
	if strings.Contains(string(rest), "RUN_FINISHED") {
		t.Errorf("stream finished instead of ending at shutdown: %s", rest)
	}

	var streamLog map[string]any
	for _, l := range stdout.logLines() {
		if l["path"] == "/api/agent-analysis" {
			streamLog = l
		}
	}
	if streamLog["end"] != "shutdown" || streamLog["scenario"] != "slow" || streamLog["status"] != float64(200) {
		t.Errorf("stream log line %v", streamLog)
	}
	http.DefaultClient.CloseIdleConnections()
}

func TestMissingWasmIsAClearError(t *testing.T) {
	err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-web", t.TempDir()}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "make wasm") {
		t.Fatalf("run = %v", err)
	}
}
