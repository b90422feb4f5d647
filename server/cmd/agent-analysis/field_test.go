package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// report runs check with -json and reads its report.
func report(t *testing.T, args ...string) (checkReport, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(t.Context(), append([]string{"check", "-json"}, args...), &out, io.Discard)
	var r checkReport
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
		t.Fatalf("%v: %v\n%s", args, jerr, out.String())
	}
	return r, err
}

type checkReport struct {
	Passed, Failed int
	Results        []struct {
		Name        string
		OK          bool
		Stopped     string
		Interrupted string
		Continues   string
		Notes       []string
		Failures    []struct{ Rule, Text, Page string }
	}
}

// -cancel-after stops a run as a user pressing Stop does, at an event or
// a time, judges what came, and asks for a new run on the same thread: a
// stop is no failure, a rule broken before it is, and an agent that will
// not serve the thread again fails the run after the stop.
func TestCheckCancelAfter(t *testing.T) {
	api := servertest.Ours(t)
	for _, tt := range []struct {
		name, scenario, after string
		stopped               string // the first run's "stopped", "" when the stream ended first
		rule                  string // the first run's failure, "" for none
	}{
		{"at the headers", "normal", "0", "stopped after 0 events, as a user pressing Stop", ""},
		{"in a tool call", "approval", "4", "stopped after 4 events, as a user pressing Stop: RUN_STARTED, STATE_SNAPSHOT, STATE_DELTA, TOOL_CALL_START", ""},
		{"after the end", "normal", "10", "", ""},
		{"after a broken rule", "first-not-run-started", "2", "stopped after 2 events, as a user pressing Stop: STATE_SNAPSHOT, RUN_STARTED", "first-event"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := report(t, "-url", api, "-scenario", tt.scenario, "-cancel-after", tt.after)
			if len(r.Results) != 2 {
				t.Fatalf("%v: %+v", err, r)
			}
			first, again := r.Results[0], r.Results[1]
			if first.Name != tt.scenario || first.Stopped != tt.stopped || (tt.rule == "") != first.OK || (tt.rule != "" && first.Failures[0].Rule != tt.rule) {
				t.Errorf("the stopped run: %+v", first)
			}
			if tt.stopped == "" && !strings.Contains(strings.Join(first.Notes, "\n"), "the stream ended after 6 events, before -cancel-after stopped it") {
				t.Errorf("no note of the stream ending first: %+v", first.Notes)
			}
			if again.Name != tt.scenario+"/after-stop" || again.OK != (tt.scenario != "first-not-run-started") {
				t.Errorf("the run after the stop: %+v", again)
			}
		})
	}
}

// A run that ends interrupted before the stop is answered, as without
// -cancel-after, and the run that resumes it judged: there was nothing
// left to stop.
func TestCheckCancelAfterTheInterrupt(t *testing.T) {
	r, err := report(t, "-url", servertest.Ours(t), "-scenario", "approval", "-cancel-after", "50", "-answer", "approve")
	if err != nil || len(r.Results) != 2 {
		t.Fatalf("%v: %+v", err, r)
	}
	first, resumed := r.Results[0], r.Results[1]
	if !first.OK || first.Interrupted == "" || first.Stopped != "" || resumed.Name != "approval/approved" || !resumed.OK || resumed.Continues != "approval" {
		t.Errorf("%+v\n%+v", first, resumed)
	}
}

// A stop after a duration halts the run there, whatever came by then.
func TestCheckCancelAfterADuration(t *testing.T) {
	started := `data: {"type":"RUN_STARTED","threadId":%q,"runId":%q}` + "\n\n"
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, started, in.ThreadID, in.RunID)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // a stream that never ends
	})
	r, err := report(t, "-url", url+"/agent", "-cancel-after", "30ms", "-timeout", "10s")
	if err == nil || len(r.Results) != 2 || !r.Results[0].OK || !strings.HasPrefix(r.Results[0].Stopped, "stopped after ") || r.Results[0].Name != "agent" {
		t.Fatalf("%v %+v", err, r)
	}
	// The run after the stop never ends either: it fails by the timeout.
	if again := r.Results[1]; again.OK || again.Failures[0].Rule != "timeout" {
		t.Errorf("%+v", again)
	}
}

// An agent that answers a thread still busy with an empty stream, as a
// real one was seen to, fails the run after the stop.
func TestCheckCancelAfterAgainstABusyThread(t *testing.T) {
	var mu sync.Mutex
	busy := map[string]bool{}
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		mu.Lock()
		wasBusy := busy[in.ThreadID]
		busy[in.ThreadID] = true
		mu.Unlock()
		if wasBusy {
			return // 200 and nothing
		}
		fmt.Fprintf(w, `data: {"type":"RUN_STARTED","threadId":%q,"runId":%q}`+"\n\n", in.ThreadID, in.RunID)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	r, _ := report(t, "-url", url, "-cancel-after", "1")
	if len(r.Results) != 2 || !r.Results[0].OK || r.Results[1].OK || r.Results[1].Failures[0].Rule != "truncated" ||
		r.Results[1].Failures[0].Text != "the stream ended before any run" {
		t.Errorf("%+v", r)
	}
}

// What a live run sends: a complete RunAgentInput (every member real
// agents require, empty), headers as given; no scenario to an agent that
// is not this project's server; the run named after the URL's path.
func TestCheckURLSendsACompleteInputAndHeaders(t *testing.T) {
	var mu sync.Mutex
	var got []map[string]json.RawMessage
	var auth []string
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		var in map[string]json.RawMessage
		json.NewDecoder(r.Body).Decode(&in)
		mu.Lock()
		got, auth = append(got, in), append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		var ids struct{ ThreadID, RunID string }
		ids.ThreadID, ids.RunID = unquote(in["threadId"]), unquote(in["runId"])
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":%q,\"runId\":%q}\n\n", ids.ThreadID, ids.RunID, ids.ThreadID, ids.RunID)
	})
	secret := "Bearer s3cret-t0ken"
	junit, sarif := filepath.Join(t.TempDir(), "r.xml"), filepath.Join(t.TempDir(), "r.sarif")
	var out, errs bytes.Buffer
	err := run(t.Context(), []string{"check", "-url", url + "/api/copilotkit/", "-H", "Authorization: " + secret, "-H", "X-Trace: 1", "-junit", junit, "-sarif", sarif, "-v", "-thread", "thread-9"}, &out, &errs)
	if err != nil || !strings.HasPrefix(out.String(), "ok   api/copilotkit\n") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	in := got[0]
	for _, name := range []string{"threadId", "runId", "messages", "tools", "context", "state", "forwardedProps", "protocolVersion"} {
		if in[name] == nil {
			t.Errorf("no %s in %v", name, in)
		}
	}
	if string(in["forwardedProps"]) != "{}" || string(in["state"]) != "{}" || string(in["tools"]) != "[]" || unquote(in["threadId"]) != "thread-9" || auth[0] != secret {
		t.Errorf("sent %v with Authorization %q", in, auth[0])
	}
	for name, text := range map[string]string{"stdout": out.String(), "stderr": errs.String(), "junit": read(t, junit), "sarif": read(t, sarif)} {
		if strings.Contains(text, "s3cret") {
			t.Errorf("the header's value is in %s:\n%s", name, text)
		}
	}
	// A bad header never shows its value, not even in the error.
	errs.Reset()
	err = run(t.Context(), []string{"check", "-url", url, "-H", "Authorization " + secret}, io.Discard, &errs)
	if code := exitCode(err, &errs); code != 2 || strings.Contains(errs.String(), "s3cret") {
		t.Errorf("exit %d:\n%s", code, errs.String())
	}
}

func unquote(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(b)
}

// A capture a server wrote as an HTTP error body says so, and a FAIL line
// of a capture gets its line in SARIF.
func TestCheckNamesWhatAFileHolds(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "error.json", `{"detail":"tools: Field required"}`)
	capture := testfile.Write(t, dir, "broken.sse", ": hello\n\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\ndata: {\"type\":\"STATE_DELTA\",\"delta\":[]}\n\n")
	sarif := filepath.Join(t.TempDir(), "r.sarif")
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "-sarif", sarif, dir}, &out, io.Discard)
	if !errors.Is(err, errFailed) || !strings.Contains(out.String(), `FAIL error: file: `+filepath.Join(dir, "error.json")+`: line 1: the file holds an HTTP error body, not a stream: {"detail":"tools: Field required"}`) {
		t.Errorf("%v\n%s", err, out.String())
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine int }
					}
				}
			}
		}
	}
	json.Unmarshal([]byte(read(t, sarif)), &doc)
	for _, r := range doc.Runs[0].Results {
		if r.RuleID == "after-finish" && r.Locations[0].PhysicalLocation.Region.StartLine != 8 {
			t.Errorf("the capture's event 3 is on line 8, SARIF says %d", r.Locations[0].PhysicalLocation.Region.StartLine)
		}
	}
	if !strings.Contains(read(t, sarif), `"after-finish"`) {
		t.Errorf("no after-finish for %s in\n%s", capture, read(t, sarif))
	}
}
