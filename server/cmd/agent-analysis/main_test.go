package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
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
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if v, ok := f(); ok {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
	panic("unreachable")
}

// instance is run() serving on a free loopback port.
type instance struct {
	base   string
	stdout *syncBuffer
	stop   func() error // shuts down and returns run's error
}

func start(t *testing.T, args ...string) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &syncBuffer{}
	result := make(chan error, 1)
	go func() {
		result <- run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0", "-log-json"}, args...), stdout, io.Discard)
	}()
	pageURL := waitFor(t, "the listening line", func() (string, bool) {
		for _, l := range stdout.logLines() {
			if l["msg"] == "listening" {
				return l["url"].(string), true
			}
		}
		select {
		case err := <-result:
			t.Fatalf("run returned %v before listening", err)
		default:
		}
		return "", false
	})
	in := &instance{base: strings.TrimSuffix(pageURL, "/agent-analysis"), stdout: stdout}
	stopped := false
	in.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-result:
			return err
		case <-time.After(20 * time.Second):
			t.Fatal("run did not return after its context ended")
			return nil
		}
	}
	t.Cleanup(func() {
		in.stop()
		http.DefaultClient.CloseIdleConnections()
	})
	return in
}

func webWithWasm(t *testing.T) string {
	web := t.TempDir()
	os.WriteFile(filepath.Join(web, "app.wasm"), []byte("\x00asm"), 0o644)
	return web
}

func post(t *testing.T, base, scenario string) *http.Response {
	t.Helper()
	body := fmt.Sprintf(`{"threadId":"t","runId":"r","messages":[],"forwardedProps":{"scenario":%q}}`, scenario)
	resp, err := http.Post(base+"/api/agent-analysis", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestShutdownEndsOpenStreamsAndExitsCleanly(t *testing.T) {
	in := start(t, "-web", webWithWasm(t))
	if resp, err := http.Get(in.base + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	resp := post(t, in.base, "slow")
	defer resp.Body.Close()
	lines := bufio.NewReader(resp.Body)
	if first, err := lines.ReadString('\n'); err != nil || !strings.Contains(first, "RUN_STARTED") {
		t.Fatalf("first line %q, %v", first, err)
	}

	// The slow stream has seconds to go; shutdown must not wait for it.
	start := time.Now()
	if err := in.stop(); err != nil {
		t.Fatalf("run returned %v", err)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("shutdown took %v: it waited for the stream", took)
	}
	// It ends with the run cancelled, as AG-UI 1.0 lets a server end a run
	// it will not finish (events/lifecycle), not with the script's finish.
	rest, _ := io.ReadAll(lines)
	events := strings.Split(strings.TrimSpace(string(rest)), "\n\n")
	last := events[len(events)-1]
	if strings.Count(string(rest), "RUN_FINISHED") != 1 || !strings.Contains(last, `"type":"RUN_FINISHED"`) || !strings.Contains(last, `"outcome":{"type":"cancelled"}`) {
		t.Errorf("stream did not end with the run cancelled at shutdown: %s", rest)
	}
	var streamLog map[string]any
	for _, l := range in.stdout.logLines() {
		if l["path"] == "/api/agent-analysis" {
			streamLog = l
		}
	}
	if streamLog["end"] != "shutdown" || streamLog["scenario"] != "slow" || streamLog["status"] != float64(200) {
		t.Errorf("stream log line %v", streamLog)
	}
}

// A body that stalls does not hold shutdown for its 10 s.
func TestShutdownDoesNotWaitOnAStalledBody(t *testing.T) {
	in := start(t, "-web", webWithWasm(t))
	conn, err := net.Dial("tcp", strings.TrimPrefix(in.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The server answers "100 Continue" when the handler first reads the
	// body: then it is reading, and the body stalls after one byte.
	fmt.Fprint(conn, "POST /api/agent-analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, "100 Continue") {
		t.Fatalf("the handler did not start reading the body: %q %v", status, err)
	}
	fmt.Fprint(conn, "{")
	start := time.Now()
	if err := in.stop(); err != nil {
		t.Fatalf("run returned %v", err)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("shutdown took %v: it waited for the stalled body", took)
	}
}

func TestStartsWithoutWasm(t *testing.T) {
	web := t.TempDir()
	in := start(t, "-web", web)
	warned := false
	for _, l := range in.stdout.logLines() {
		warned = warned || (l["level"] == "WARN" && strings.Contains(fmt.Sprint(l["msg"]), "no app.wasm"))
	}
	if !warned {
		t.Error("no warning about the missing app.wasm")
	}
	page, err := http.Get(in.base + "/agent-analysis")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if page.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "make wasm") {
		t.Errorf("page: %d %s", page.StatusCode, body)
	}
	resp := post(t, in.base, "normal")
	stream, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(stream), "RUN_FINISHED") {
		t.Errorf("API without the wasm: %d %s", resp.StatusCode, stream)
	}
}

func TestNoDelayPlaysTheSlowScenarioAtOnce(t *testing.T) {
	in := start(t, "-web", webWithWasm(t), "-no-delay")
	begin := time.Now()
	resp := post(t, in.base, "slow")
	stream, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// The slow scenario's delays add up to 6.25 s.
	if took := time.Since(begin); took > 6*time.Second || strings.Count(string(stream), "data: ") != 5 {
		t.Errorf("took %v for %d events", took, strings.Count(string(stream), "data: "))
	}
}

func TestFlags(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"serve", "-h"}, &stdout, io.Discard); err != nil {
		t.Errorf("-h: %v", err)
	}
	for _, flag := range []string{"-no-delay", "-max-streams", "-cors-origins", "-web", "-addr"} {
		if !strings.Contains(stdout.String(), flag) {
			t.Errorf("usage lacks %s:\n%s", flag, stdout.String())
		}
	}
	for _, args := range [][]string{
		{"-cors-origins", "ftp://example.test"},
		{"-cors-origins", "http://localhost:5173/app"},
		{"-cors-origins", "localhost:5173"},
		{"-max-streams", "0"},
		{"-nope"},
		{"stray"},
	} {
		if err := run(context.Background(), append([]string{"serve"}, args...), io.Discard, io.Discard); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	got, err := parseOrigins(" http://localhost:5173/, https://a.test:8443,*")
	if err != nil || strings.Join(got, " ") != "http://localhost:5173 https://a.test:8443 *" {
		t.Errorf("parseOrigins = %v, %v", got, err)
	}
	// A browser leaves a scheme's default port out of Origin: so does the
	// list, or the origin written with it would never match.
	got, err = parseOrigins("http://localhost:80,https://a.test:443,http://[::1]:80,http://b.test:")
	if err != nil || strings.Join(got, " ") != "http://localhost https://a.test http://[::1] http://b.test" {
		t.Errorf("parseOrigins = %v, %v", got, err)
	}
}
