package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/sarif/sariftest"
	"github.com/agent-analysis/agent-analysis/server/library"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// proxy in front of our server: a line per run, the log a directory serve
// plays and check judges, a summary and exit status 1 once stopped.
func TestProxyCommand(t *testing.T) {
	api := servertest.Ours(t)
	dir, sarifDir := t.TempDir(), t.TempDir()
	out, lines := linesOf(t)
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"proxy", "-upstream", api, "-addr", "127.0.0.1:0", "-log", filepath.Join(dir, "traffic.json"),
			"-sarif", filepath.Join(sarifDir, "proxy.sarif")}, out, io.Discard)
		out.Close()
	}()
	first := <-lines
	addr, ok := strings.CutPrefix(first, "proxy: listening on ")
	addr, _, _ = strings.Cut(addr, ",")
	if !ok || !strings.HasSuffix(first, ", forwarding to "+api) {
		t.Fatalf("%q", first)
	}
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	c := &http.Client{Transport: transport}
	for _, scenario := range []string{"normal", "events-after-finish"} {
		resp, err := c.Post(addr, "application/json", strings.NewReader(`{"threadId":"t1","runId":"r1","messages":[],"forwardedProps":{"scenario":"`+scenario+`"}}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	want := []string{
		"ok   thread t1 run r1 · 6 events · 200 text/event-stream · ",
		"     logged to " + filepath.Join(dir, "traffic.json"),
		`FAIL thread t1 run r1: after-finish at event 5: STATE_DELTA after run "r1" finished: only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED (https://docs.ag-ui.com/spec/1.0/events/lifecycle)`,
		"     6 events · 200 text/event-stream · ",
		"     logged to " + filepath.Join(dir, "traffic-2.json"),
	}
	for _, w := range want {
		if line := <-lines; !strings.HasPrefix(line, w) {
			t.Errorf("line %q, want %q", line, w)
		}
	}
	stop()
	if line := <-lines; line != "2 runs: 1 ok, 1 failed (after-finish ×1)" {
		t.Errorf("summary %q", line)
	}
	if err := <-done; !errors.Is(err, errFailed) {
		t.Errorf("exit: %v", err)
	}

	// Every failure is a SARIF result: its rule, its page, the URL, the event.
	raw, _ := os.ReadFile(filepath.Join(sarifDir, "proxy.sarif"))
	if err := sariftest.Validate(raw); err != nil {
		t.Errorf("not SARIF 2.1.0: %v\n%s", err, raw)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID     string
				Properties struct{ Event int }
				Locations  []struct {
					PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &log); err != nil || len(log.Runs[0].Results) != 1 {
		t.Fatalf("%v\n%s", err, raw)
	}
	r, rule := log.Runs[0].Results[0], log.Runs[0].Tool.Driver.Rules[0]
	if r.RuleID != "after-finish" || r.Properties.Event != 5 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != api ||
		rule.HelpURI != "https://docs.ag-ui.com/spec/1.0/events/lifecycle" {
		t.Errorf("%s", raw)
	}

	// The log is scripts serve plays and check judges as the proxy did.
	if _, err := library.Load(dir); err != nil {
		t.Errorf("serve -fixtures %s: %v", dir, err)
	}
	var report bytes.Buffer
	run(t.Context(), []string{"check", dir}, &report, io.Discard)
	if !strings.Contains(report.String(), "FAIL traffic-2: after-finish") || !strings.Contains(report.String(), "ok   traffic\n") {
		t.Errorf("check:\n%s", report.String())
	}
}

func TestProxyCommandLine(t *testing.T) {
	for _, args := range [][]string{
		{"proxy"},
		{"proxy", "-upstream", "ftp://x"},
		{"proxy", "-upstream", "http://x", "extra"},
		{"proxy", "-upstream", "http://x", "-log", "x.txt"},
		{"proxy", "-upstream", "http://x", "-cors-origins", "not an origin"},
		{"proxy", "-upstream", "http://x", "-write-timeout", "0s"},
	} {
		if err := run(t.Context(), args, io.Discard, io.Discard); err == nil || errors.Is(err, errFailed) {
			t.Errorf("%v: %v", args, err)
		}
	}
	var usage bytes.Buffer
	if err := run(t.Context(), []string{"proxy", "-h"}, &usage, io.Discard); err != nil || !strings.Contains(usage.String(), "Usage: agent-analysis proxy -upstream URL") {
		t.Errorf("-h: %v %s", err, usage.String())
	}
}

// linesOf is a writer, and the lines written to it as they come.
func linesOf(t *testing.T) (*io.PipeWriter, <-chan string) {
	r, w := io.Pipe()
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		s := bufio.NewScanner(r)
		for s.Scan() {
			lines <- s.Text()
		}
	}()
	t.Cleanup(func() { r.Close() })
	return w, lines
}

// The proxy's lines escape the client's ids and the agent's words: a
// thread id with a line end forges no line of the report.
func TestProxyLinesAreEscaped(t *testing.T) {
	api := servertest.Ours(t)
	out, lines := linesOf(t)
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"proxy", "-upstream", api, "-addr", "127.0.0.1:0"}, out, io.Discard)
		out.Close()
	}()
	addr, _ := strings.CutPrefix(<-lines, "proxy: listening on ")
	addr, _, _ = strings.Cut(addr, ",")
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	resp, err := (&http.Client{Transport: transport}).Post(addr, "application/json",
		strings.NewReader(`{"threadId":"t\nok   forged\u001b[2J","runId":"r1","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if line := <-lines; !strings.Contains(line, `thread t\nok   forged\x1b[2J run r1`) {
		t.Errorf("line %q", line)
	}
	stop()
	for range lines {
	}
	<-done
}
